// `termsupervisor hooks install|uninstall|status <agent…>`: puts `termsupervisor hook` into the agents' own settings
// (Claude Code and Gemini CLI settings.json hooks, Codex config.toml notify), idempotently, keeping everything else
// and a backup; `uninstall` takes exactly ours out again.
import { printableFile, printableLines } from './printable.js';
import { resolve } from 'node:path';
import { HOOK_AGENTS, isHookAgent, type HookAgent } from '../hooks/agents.js';
import { applyPlan, hookStatus, planInstall, planUninstall, type AgentStatus, type HookPlaces, type Plan } from '../hooks/install.js';
import { lineDiff } from '../hooks/line-diff.js';
import { parseArgs, UsageError } from './args.js';

export const HOOKS_USAGE = `usage: termsupervisor hooks install <agent…|all> [--dry-run] [--home DIR] [--command PATH]
       termsupervisor hooks uninstall <agent…|all> [--dry-run] [--home DIR]
       termsupervisor hooks status [agent…|all] [--home DIR]

Lets the agents tell termsupervisor themselves when a turn starts, needs you, or ends (Tier 1, source "hook"):
  claude   ~/.claude/settings.json ($CLAUDE_CONFIG_DIR): hooks UserPromptSubmit, PreToolUse, PermissionRequest,
           Notification, Stop, SessionStart, SessionEnd
  codex    ~/.codex/config.toml ($CODEX_HOME): notify (turn ends; Codex runs one notify program: one already set
           is kept and explained)
  gemini   ~/.gemini/settings.json: hooks BeforeAgent, AfterAgent, Notification, SessionStart, SessionEnd
  qwen     ~/.qwen/settings.json ($QWEN_HOME): hooks UserPromptSubmit, PreToolUse, PermissionRequest, Notification,
           Stop, StopFailure, SessionStart, SessionEnd
  opencode ~/.config/opencode/plugin/termsupervisor.js ($XDG_CONFIG_HOME): a plugin of its own forwarding
           chat.message, session.status, session.error, permission.asked/replied, question.asked/replied/rejected
  kilo     ~/.config/kilo/plugin/termsupervisor.js: the same plugin for Kilo Code CLI
Running it again changes nothing; your other settings stay as they are; the previous file is kept next to it as
<file>.termsupervisor-backup-<time>. Restart the agent for new hooks to take effect.
  --dry-run  show what would change, change nothing
  --home     use DIR instead of your home directory (and ignore $CLAUDE_CONFIG_DIR / $CODEX_HOME / $QWEN_HOME)
  --command  the termsupervisor program the hooks run (default: this one, ${JSON.stringify(defaultProgram())})
Exit status: 0 done (or nothing to do), 1 a file was left alone (the reason is printed), 2 usage.
examples:
  termsupervisor hooks install claude codex gemini --dry-run
  termsupervisor hooks install all
  termsupervisor hooks status
  termsupervisor hooks uninstall all`;

export async function hooksCommand(argv: string[], out: NodeJS.WritableStream = process.stdout, err: NodeJS.WritableStream = process.stderr): Promise<number> {
  const a = parseArgs(argv, { values: ['home', 'command'], flags: ['help', 'dry-run'] });
  if (a.options.has('help')) {
    out.write(HOOKS_USAGE + '\n');
    return 0;
  }
  const [verb, ...names] = a.positional;
  if (verb !== 'install' && verb !== 'uninstall' && verb !== 'status') throw new UsageError(`hooks needs install, uninstall or status\n\n${HOOKS_USAGE}`);
  const agents = agentsFrom(names, verb === 'status');
  const places: HookPlaces = {};
  const home = a.options.get('home');
  if (home === true || home === '') throw new UsageError('--home needs a directory');
  if (home !== undefined) places.home = resolve(home);
  const dryRun = a.options.has('dry-run');

  if (verb === 'status') {
    for (const agent of agents) {
      const s = hookStatus(agent, places);
      out.write(printableLines(`${agent}: ${hookStatusText(s)} — ${s.file}${s.exists ? '' : ' (no such file)'}`) + '\n');
    }
    return 0;
  }

  const command = a.options.get('command');
  if (command === true || command === '') throw new UsageError('--command needs a path');
  const program = command ?? defaultProgram();
  let refused = 0;
  for (const agent of agents) {
    const plan = verb === 'install' ? planInstall(agent, program, places) : planUninstall(agent, places);
    refused += report(plan, dryRun, out, err) ? 0 : 1;
  }
  if (verb === 'install' && !dryRun && refused < agents.length) out.write('Restart running agents for the hooks to take effect.\n');
  return refused ? 1 : 0;
}

/** One agent's hooks in words: installed, partly installed (missing …), not installed, or someone else's notify. */
export function hookStatusText(s: AgentStatus): string {
  if (s.foreign) return `notify belongs to another program (${s.foreign})`;
  if (s.missing.length === 0) return 'installed';
  return s.installed.length ? `partly installed (missing ${s.missing.join(', ')})` : 'not installed';
}

/** Prints what happened (or would); returns false when the file was refused. */
function report(plan: Plan, dryRun: boolean, out: NodeJS.WritableStream, err: NodeJS.WritableStream): boolean {
  const r = plan.result;
  const plugin = plan.agent === 'opencode' || plan.agent === 'kilo';
  const what = plan.agent === 'codex' ? 'notify' : plugin ? 'the termsupervisor plugin' : plan.action === 'install' ? 'hooks' : 'termsupervisor hooks';
  if (r.status === 'refused') {
    err.write(`${plan.agent}: ${plan.file} left alone: ${r.reason}\n`);
    return false;
  }
  for (const w of plan.warnings) err.write(`${plan.agent}: warning: ${w}\n`);
  const notes = r.notes.length ? ` (${r.notes.join('; ')})` : '';
  if (r.status === 'unchanged') {
    out.write(printableLines(`${plan.agent}: ${plan.action === 'install' ? 'already installed' : 'nothing to remove'} in ${plan.file}${notes}`) + '\n');
    return true;
  }
  if (dryRun) {
    out.write(printableLines(`${plan.agent}: would ${plan.action === 'install' ? 'add' : 'remove'} ${what} in ${plan.file}${plan.before === null ? ' (a new file)' : ''}:`) + '\n');
    out.write(printableFile(lineDiff(plan.before ?? '', r.text)) + '\n');
    return true;
  }
  const { backup } = applyPlan(plan);
  out.write(printableLines(`${plan.agent}: ${plan.action === 'install' ? 'installed' : 'removed'} ${what} in ${plan.file}${notes}${backup ? `; the previous version is ${backup}` : ''}`) + '\n');
  return true;
}

function agentsFrom(names: string[], emptyIsAll: boolean): HookAgent[] {
  if ((names.length === 0 && emptyIsAll) || names.includes('all')) return [...HOOK_AGENTS];
  if (names.length === 0) throw new UsageError(`name the agents: ${HOOK_AGENTS.join(', ')} or all\n\n${HOOKS_USAGE}`);
  const bad = names.find((n) => !isHookAgent(n));
  if (bad !== undefined) throw new UsageError(`unknown agent ${JSON.stringify(bad)}: one of ${HOOK_AGENTS.join(', ')}, all`);
  return [...new Set(names as HookAgent[])];
}

/** This program as it was started (an npm link stays the link, so upgrades keep working). */
function defaultProgram(): string {
  const argv1 = process.argv[1];
  return argv1 && /termsupervisor[^/]*$/.test(argv1) ? resolve(argv1) : 'termsupervisor';
}
