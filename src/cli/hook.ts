// `termsupervisor hook <agent> [event]`: what the agents' hooks run (installed by `termsupervisor hooks install`).
// Reads the hook's JSON (stdin, or Codex's one argument), names the pane it runs in, posts the event to the daemon
// and exits 0, quickly, whatever happens: a hook must never hold up or break the agent. Nothing is written to
// stdout (Claude adds a hook's stdout to the model's context; Gemini parses it as JSON).
//
// Kept lean on purpose: bin/termsupervisor loads this file alone for `hook`, not the whole CLI (xterm, fastify,
// pino would cost the agent a few hundred milliseconds on every hook).
import { HOOK_AGENTS, isHookAgent } from '../hooks/agents.js';
import { hookEventFrom } from '../hooks/payload.js';
import { paneRefFromEnv } from '../hooks/pane-ref.js';
import { HOOK_BODY_VERSION, type HookBody } from '../hooks/hook-body.js';
import { postHook } from '../hooks/transport.js';
import { readRuntimeFile } from '../daemon/runtime-file.js';
import { readToken } from '../daemon/token.js';

export const HOOK_USAGE = `usage: termsupervisor hook <${HOOK_AGENTS.join('|')}> [event] [payload-json] [--daemon URL] [--verbose]

Run by an agent's hooks (see 'termsupervisor hooks install'), not by people. Reads the hook's JSON from stdin (Claude
Code, Gemini CLI) or from its last argument (Codex notify), finds its pane ($TERMSUPERVISOR_PANE_ID set by
'termsupervisor run', else $TMUX_PANE, else $ITERM_SESSION_ID, else the terminal) and tells the daemon. Always exits
0, within a fraction of a second, daemon or not; prints nothing unless --verbose (then to stderr).
  event      the hook event, when the payload does not name it (the installed hooks pass it)
  --daemon   the daemon's URL (default: $TERMSUPERVISOR_DAEMON, else the running daemon's runtime file)
  --verbose  say on stderr what was sent and what came back
Anything it does not understand (an unknown agent or option, a payload that is not JSON) is ignored: still exit 0.
examples:
  echo '{"hook_event_name":"Stop","session_id":"s1"}' | termsupervisor hook claude Stop --verbose
  termsupervisor hook codex '{"type":"agent-turn-complete"}' --verbose`;

/** The daemon gets this long to accept the event (connect and answer): a hook must not hold the agent up. */
export const HOOK_POST_TIMEOUT_MS = 300;
/** Stdin is read until the agent closes it or a whole JSON object has arrived, but never longer than this. */
export const HOOK_STDIN_TIMEOUT_MS = 500;
/** A payload beyond this is not read further (a Write tool's content can be large; the event name is in argv). */
const MAX_STDIN_CHARS = 4 << 20;

export interface HookIo {
  stdin: NodeJS.ReadStream;
  stderr: NodeJS.WritableStream;
  env: NodeJS.ProcessEnv;
}

export async function hookCommand(argv: string[], io: HookIo = { stdin: process.stdin, stderr: process.stderr, env: process.env }): Promise<number> {
  const say = (msg: string): void => void io.stderr.write(`termsupervisor hook: ${msg}\n`);
  let verbose = false;
  let daemonFlag: string | undefined;
  let payloadArg: string | undefined;
  const positional: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === '--verbose' || a === '-v') verbose = true;
    else if (a === '--daemon') daemonFlag = argv[++i];
    else if (a.startsWith('--daemon=')) daemonFlag = a.slice('--daemon='.length);
    else if (a === '--help' || a === '-h') {
      process.stdout.write(HOOK_USAGE + '\n'); // a person asked; an agent never passes --help
      return 0;
    } else if (a.trimStart().startsWith('{')) payloadArg = a; // Codex appends its JSON as the last argument
    else positional.push(a);
  }
  const [agent, eventArg] = positional;
  // A misconfigured hook is worth a word even without --verbose (stderr only: the agent carries on).
  if (!isHookAgent(agent)) {
    say(`the first argument must be one of ${HOOK_AGENTS.join(', ')}, got ${JSON.stringify(agent ?? '')}`);
    return 0;
  }

  const text = payloadArg ?? (await readStdin(io.stdin));
  let raw: unknown;
  try {
    raw = text ? JSON.parse(text) : undefined;
  } catch {
    if (verbose) say('the payload is not JSON; using the event argument');
  }
  const ev = hookEventFrom(agent, raw, eventArg);
  if (typeof ev === 'string') {
    if (verbose) say(ev);
    return 0;
  }
  const target = findTarget(daemonFlag, io.env);
  if (!target) {
    if (verbose) say('no daemon is running (no runtime file, no --daemon, no $TERMSUPERVISOR_DAEMON)');
    return 0;
  }
  const body: HookBody = { v: HOOK_BODY_VERSION, ...ev, pane: paneRefFromEnv(io.env) };
  const r = await postHook(target.url, target.token, body, HOOK_POST_TIMEOUT_MS);
  if (verbose) say(r.ok ? `${ev.event} → ${target.url}: HTTP ${r.status} ${r.body}` : `${ev.event} → ${target.url}: ${r.error}`);
  return 0;
}

/** Where the daemon is, as `run` finds it (src/cli/daemon-link.ts findDaemon), without loading the websocket client. */
function findTarget(flag: string | undefined, env: NodeJS.ProcessEnv): { url: string; token: string | null } | null {
  const url = flag || env['TERMSUPERVISOR_DAEMON'] || readRuntimeFile()?.url;
  return url ? { url, token: readToken() } : null;
}

/** Everything on stdin, or '' when it is a terminal (a person trying the command) or says nothing in time. */
function readStdin(stdin: NodeJS.ReadStream): Promise<string> {
  if (stdin.isTTY) return Promise.resolve('');
  return new Promise((resolve) => {
    let text = '';
    const done = (): void => {
      clearTimeout(timer);
      stdin.off('data', onData);
      stdin.off('end', done);
      stdin.off('error', done);
      stdin.destroy();
      resolve(text);
    };
    const onData = (d: string): void => {
      text += d;
      // An agent that keeps stdin open still gets a quick exit once a whole object has arrived.
      if (text.length >= MAX_STDIN_CHARS || (text.trimEnd().endsWith('}') && parses(text))) done();
    };
    const timer = setTimeout(done, HOOK_STDIN_TIMEOUT_MS);
    stdin.setEncoding('utf8');
    stdin.on('data', onData);
    stdin.on('end', done);
    stdin.on('error', done);
  });
}

function parses(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}
