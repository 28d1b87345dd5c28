// The command line: dispatches subcommands, turns usage and config errors into clear messages and exit codes.
import { AGENT_CHOICES, ConfigError, GENERIC_AGENTS, isGenericAgent } from '../config/config.js';
import { HOOK_AGENTS } from '../hooks/agents.js';
import { CastFormatError } from '../attach/asciicast.js';
import { UsageError } from './args.js';
import { replayCommand } from './replay.js';
import { classifyCommand } from './classify.js';
// Every other command is imported when it runs: a replay (run hundreds of times by the corpus tests) loads no
// server, store or dashboard (0.27 s -> 0.16 s of start-up).
import { DaemonUnavailable } from './daemon-client.js';
import { VERSION } from './version.js';
import { EXAMPLES, helpHint, SETUP_COMMANDS } from './help.js';
import { printableLines } from './printable.js';
import { didYouMean } from './did-you-mean.js';
import { exitQuietlyWhenReaderGoes, ignoreClosedStderr } from './closed-pipe.js';

/** Every command `main` knows, for "did you mean". */
const COMMANDS = ['run', 'daemon', 'dashboard', 'status', 'wait', 'top', 'send', 'answer', 'interrupt', 'ack', 'focus', 'name', 'tmux', 'doctor', 'replay', 'classify', 'hooks', 'task', 'hook', 'service', 'shell-integration', 'logs', 'help', 'version'];

/** Commands that keep working when their stdout goes away (see closed-pipe.ts). */
const OUTLIVE_STDOUT = new Set(['run', 'daemon']);

export const USAGE = `termsupervisor ${VERSION}: watches terminal panes running AI coding agents and shells, and tells you
when one needs you (DONE, FAILED, WAITING_APPROVAL, stalled) or is still working.

usage: termsupervisor <command> [options]

commands:
  run [--name N] [--agent A] [--record file.cast] [--log PATH] [--cols N] [--rows N] [--daemon URL | --no-daemon]
      -- <command...>
                      run a command in a watched pane, transparently; transitions go to the event log
  daemon [--port N] [--host ADDR] [--db PATH] [--tmux | --no-tmux] [--tmux-socket NAME|PATH]
                      the background service: dashboard, API, history, notifications
  dashboard [--daemon URL]
                      print a fresh one-time link to the running daemon's dashboard
  status [--json] [--all] [--no-color]
                      one line per pane: state (coloured), since when, name, program, needs you, why
  wait PANE --until done|waiting|idle|failed|running [--timeout S] [--appear-timeout S]
                      block until the pane gets there (exit 0; 1 timeout, 2 no such pane, 3 FAILED for done, 4 closed)
  top [--no-color]    a live full-screen view, the panes that need you first: move, jump, answer, reply,
                      interrupt, ack, filter from the keyboard (top --help)
  send PANE TEXT [--rev N] [--json]
                      type a prompt into a pane at rest (DONE, FAILED, IDLE) and press Enter
  answer PANE OPTION [--rev N] [--json]
                      answer a waiting pane's question with one of its options (1, 2, y, n, ...)
  interrupt PANE [--rev N] [--json]
                      interrupt a pane's turn (Esc for an agent, Ctrl-C for a shell)
  ack PANE|--all [--json]
                      acknowledge a pane (or every one that needs you but for questions): back to IDLE
  focus PANE [--json] jump to a pane (tmux, iTerm2), or say where a \`run\` pane runs
  focus --next [--display]
                      jump to the next pane that needs you (urgency order); pressed again, the one after
  name PANE NAME      name a pane (tmux panes keep it in tmux; by default a named tmux window names its panes)
  tmux snippet        the tmux lines that show the states in the status line and window list (docs/tmux.md)
                      these act only on the screen they read: exit 3 when the pane changed meanwhile
  doctor [--json]     check the set-up (daemon, token, tmux, iTerm2, hooks, shell integration, notifications,
                      database, config), each with a fix; exit 1 if a check fails
  replay <file.cast> [--agent A] [--format jsonl|table]
                      run a recording through the detector in virtual time; one line per transition
  classify [--agent A] [--title TEXT] [file|-]
                      classify one screen's text: {verdict, rule, line} ("why does it think that?")
  hooks install|uninstall|status <${HOOK_AGENTS.join('|')}|all> [--dry-run] [--home DIR]
                      let the agents report their own turns (their hooks run 'termsupervisor hook')
  task start|list|show|stop|resume|retry ... [--daemon URL]
                      supervised runs: drive a pane to a goal and stop by itself (task --help)
  hook <${HOOK_AGENTS.join('|')}> [event] [--daemon URL] [--verbose]
                      what those hooks run: sends one hook event to the daemon; always exits 0
${SETUP_COMMANDS}
  help [command]      this text, or a command's options
  version             print the version (also --version, -V)

  A (--agent): auto (default) | ${AGENT_CHOICES.slice(1).filter((a) => !isGenericAgent(a)).join(' | ')}
               | ${GENERIC_AGENTS.join(' | ')} (the generic tier, under their own name)
  run, daemon, replay and classify take --config PATH (default: $XDG_CONFIG_HOME/termsupervisor/config.json
  if present); every command takes --help

${EXAMPLES}`;

export async function main(argv: string[]): Promise<number> {
  const [cmd, ...rest] = argv;
  const out = process.stdout;
  if (!OUTLIVE_STDOUT.has(cmd ?? '')) exitQuietlyWhenReaderGoes(out);
  ignoreClosedStderr();
  try {
    switch (cmd) {
      case 'replay':
        return await replayCommand(rest, out);
      case 'classify':
        return await classifyCommand(rest, out);
      case 'run':
        return await (await import('./run.js')).runCommand(rest);
      case 'daemon':
        return await (await import('./daemon.js')).daemonCommand(rest);
      case 'dashboard':
        return await (await import('./dashboard.js')).dashboardCommand(rest);
      case 'hooks':
        return await (await import('./hooks.js')).hooksCommand(rest);
      case 'status':
        return await (await import('./status.js')).statusCommand(rest);
      case 'wait':
        return await (await import('./wait.js')).waitCommand(rest);
      case 'doctor':
        return await (await import('./doctor.js')).doctorCommand(rest);
      case 'top':
        return await (await import('./top/top.js')).topCommand(rest);
      case 'send':
      case 'answer':
      case 'interrupt':
      case 'ack':
      case 'focus':
        if (cmd === 'focus' && rest.includes('--next')) return await (await import('./commands/focus-next.js')).focusNextCommand(rest);
        return await (await import('./act.js')).actCommand(cmd, rest);
      case 'name':
        return await (await import('./commands/name.js')).nameCommand(rest);
      case 'tmux':
        return (await import('./commands/tmux.js')).tmuxCommand(rest);
      case 'hook':
        return await (await import('./hook.js')).hookCommand(rest);
      case 'task':
        return await (await import('./task.js')).taskCommand(rest);
      case 'service':
        return await (await import('./service.js')).serviceCommand(rest);
      case 'logs':
        return await (await import('./logs.js')).logsCommand(rest);
      case 'shell-integration':
        return await (await import('./shell-integration.js')).shellIntegrationCommand(rest);
      case 'version':
      case '--version':
      case '-V':
        // The commands load the native modules when they run; the version is what a person checks an install with,
        // so a module that was never compiled is said here too (bin/termsupervisor explains it, exit 2).
        await import('node-pty');
        out.write(VERSION + '\n');
        return 0;
      case undefined:
      case 'help':
      case '--help':
      case '-h':
        if (rest[0]) return await main([rest[0], '--help']);
        out.write(USAGE + '\n');
        return 0;
      default: {
        // One line, not the whole help: the mistake stays on the screen, with the likeliest command it meant.
        const guess = didYouMean(cmd, COMMANDS);
        process.stderr.write(
          `termsupervisor: ${printableLines(`unknown command ${JSON.stringify(cmd)}`)}${guess ? `: did you mean ${guess}?` : ''} (see 'termsupervisor --help')\n`,
        );
        return 2;
      }
    }
  } catch (e) {
    if (e instanceof UsageError) {
      process.stderr.write(`termsupervisor: ${printableLines(helpHint(cmd, e.message))}\n`);
      return 2;
    }
    if (e instanceof DaemonUnavailable) {
      process.stderr.write(`termsupervisor: ${printableLines(e.message)}\n`);
      return 1;
    }
    if (e instanceof ConfigError || e instanceof CastFormatError) {
      process.stderr.write(`termsupervisor: ${printableLines(e.message)}\n`);
      return 2;
    }
    const err = e as NodeJS.ErrnoException;
    if (err && err.code === 'ENOENT') {
      process.stderr.write(`termsupervisor: ${printableLines(err.message)}\n`);
      return 2;
    }
    throw e;
  }
}
