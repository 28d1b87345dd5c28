// `termsupervisor task start|list|show|stop|resume|retry`: supervised runs, through the running daemon's API.
import { parseArgs, UsageError, type ParsedArgs } from './args.js';
import { daemonAsk, daemonTarget } from './daemon-client.js';
import type { PaneView, TaskDetailView, TaskView } from '../web/api-types.js';
import { resolvePane } from './wait.js';
import { printable, printableJson } from './printable.js';

export const TASK_USAGE = `usage: termsupervisor task <start|list|show|stop|resume|retry> [options]

Drives an agent pane to a goal: types the prompt, waits for the turn to really end, checks whether the goal is
met, and continues or stops by itself, under limits. The pane id is the one 'termsupervisor status' (or
GET /api/panes) shows. The daemon runs the task; these commands talk to it.

  task start --pane ID|NAME --prompt TEXT [criteria] [limits]   prints the new task's id
    criteria (optional; failure wins over success when both match):
      --until REGEX          done when the turn's screen region matches
      --success REGEX        done when it matches (repeatable)      --success-word WORD  (whole word, repeatable)
      --fail REGEX           FAILED when it matches (repeatable)    --fail-word WORD     (whole word, repeatable)
      --region R             where they look: edge (below the prompt typed, default) | last:N | rows:A-B[,C-D]
      --check CMD            a shell command after each turn; exit 0 = done (e.g. "npm test")  [--cwd DIR]
      --judge                ask the LLM judge configured in tasks.judge after each turn
      --goal TEXT            the goal in words for the judge (default: the prompt)
    loop:
      --continue TEXT        typed after a turn that ended nothing (default: config tasks.continue_text)
      --approve REGEX        approvals the task may answer itself (repeatable); all others wait for you
    limits (defaults in config section tasks):
      --max-iterations N     --max-runtime SECONDS   --heartbeat SECONDS   --on-stall pause|fail
      --max-failures N       --cooldown SECONDS      --max-per-hour N      --budget TOKENS
      --loop-turns N         --reflect-every N       --risk-threshold 0..1
  task list [--pane ID] [--limit N] [--json]
  task show ID [--json]      status, reason, every iteration and the timeline
  task stop ID               STOPPED: the task types nothing more
  task resume ID             a PAUSED task goes on
  task retry ID [--iterations N] [--budget TOKENS]
                             an EXHAUSTED (or FAILED) task goes on with more (default +10 iterations)
  every subcommand takes --daemon URL (default: $TERMSUPERVISOR_DAEMON, else the runtime file)

examples:
  termsupervisor task start --pane tmux:default:%3 --prompt "make the tests pass" --check "npm test" --max-iterations 8
  termsupervisor task start --pane api --prompt "fix the lint errors" --until "0 problems" --fail "FATAL"
  termsupervisor task show t-1a2b3c4d --json`;

export const START_VALUES = [
  'pane', 'prompt', 'goal', 'until', 'success', 'fail', 'success-word', 'fail-word', 'region', 'check', 'cwd', 'continue', 'approve',
  'max-iterations', 'max-runtime', 'heartbeat', 'on-stall', 'max-failures', 'cooldown', 'max-per-hour', 'budget', 'loop-turns',
  'reflect-every', 'risk-threshold',
];
/** Options that may be given more than once, and the request key their values go to. */
const REPEATED: Record<string, string> = { success: 'success', fail: 'failure', 'success-word': 'successWords', 'fail-word': 'failureWords', approve: 'approve' };
const NUMBERS: Record<string, string> = {
  'max-iterations': 'maxIterations',
  'max-runtime': 'maxRuntimeS',
  heartbeat: 'heartbeatS',
  'max-failures': 'maxConsecutiveFailures',
  cooldown: 'cooldownS',
  'max-per-hour': 'maxActivationsPerHour',
  budget: 'tokenBudget',
  'loop-turns': 'loopTurns',
  'reflect-every': 'reflectEvery',
  'risk-threshold': 'riskThreshold',
};
const STRINGS: Record<string, string> = { pane: 'pane', prompt: 'prompt', goal: 'goal', until: 'until', region: 'region', check: 'check', cwd: 'cwd', continue: 'continue', 'on-stall': 'onStall' };

export async function taskCommand(argv: string[]): Promise<number> {
  const [sub, ...rest] = argv;
  if (sub === undefined || sub === '--help' || sub === '-h' || sub === 'help') return void process.stdout.write(TASK_USAGE + '\n'), 0;
  if (sub.startsWith('-')) throw new UsageError(`unknown option ${sub} (options go after the subcommand: task start --pane …)`);
  switch (sub) {
    case 'start':
      return start(rest);
    case 'list':
      return list(rest);
    case 'show':
      return show(rest);
    case 'stop':
    case 'resume':
      return act(sub, rest);
    case 'retry':
      return retry(rest);
    default:
      throw new UsageError(`task: unknown subcommand ${JSON.stringify(sub)}\n\n${TASK_USAGE}`);
  }
}

async function start(argv: string[]): Promise<number> {
  const a = parseArgs(argv, { values: [...START_VALUES, 'daemon'], flags: ['help', 'judge'] });
  if (a.options.has('help')) return void process.stdout.write(TASK_USAGE + '\n'), 0;
  if (a.positional.length) throw new UsageError(`task start: unexpected argument ${JSON.stringify(a.positional[0])} (quote the prompt: --prompt "…")`);
  const body: Record<string, unknown> = {};
  for (const [opt, key] of Object.entries(STRINGS)) {
    const v = a.options.get(opt);
    if (v !== undefined) body[key] = v;
  }
  for (const [opt, key] of Object.entries(REPEATED)) {
    const all = allValues(argv, opt);
    if (all.length) body[key] = all;
  }
  for (const [opt, key] of Object.entries(NUMBERS)) {
    const v = a.options.get(opt);
    if (v === undefined) continue;
    const n = Number(v);
    if (v === true || v.trim() === '' || !Number.isFinite(n)) throw new UsageError(`--${opt} must be a number, got ${JSON.stringify(v)}`);
    body[key] = n;
  }
  if (a.options.has('judge')) body['judge'] = true;
  if (!body['pane']) throw new UsageError('task start needs --pane ID (see termsupervisor status)');
  if (!body['prompt']) throw new UsageError('task start needs --prompt TEXT');
  const target = daemonTarget(a.options.get('daemon'));
  // An id, or the name of one live pane (as `wait` takes it): the API itself wants the id.
  const pane = resolvePane(String(body['pane']), await daemonAsk<PaneView[]>(target, 'GET', '/api/panes'));
  if (typeof pane === 'string') throw new UsageError(`task start --pane: ${pane}`);
  body['pane'] = pane.id;
  const t = await daemonAsk<TaskView>(target, 'POST', '/api/tasks', body);
  process.stdout.write(t.id + '\n');
  for (const w of t.warnings) process.stderr.write(`termsupervisor: warning: ${printable(w)}\n`);
  return 0;
}

async function list(argv: string[]): Promise<number> {
  const a = parseArgs(argv, { values: ['pane', 'limit', 'daemon'], flags: ['json', 'help'] });
  if (a.options.has('help')) return void process.stdout.write(TASK_USAGE + '\n'), 0;
  const q = new URLSearchParams();
  const pane = a.options.get('pane');
  const limit = a.options.get('limit');
  if (typeof pane === 'string') q.set('pane', pane);
  if (typeof limit === 'string') q.set('limit', limit);
  const tasks = await daemonAsk<TaskView[]>(daemonTarget(a.options.get('daemon')), 'GET', `/api/tasks${q.size ? `?${q}` : ''}`);
  if (a.options.has('json')) return void process.stdout.write(printableJson(tasks, 2) + '\n'), 0;
  if (!tasks.length) return void process.stdout.write('no tasks\n'), 0;
  for (const t of tasks) process.stdout.write(`${printable(t.id)}  ${t.status.padEnd(9)}  ${String(t.iterations).padStart(3)} it  ${printable(t.spec.pane)}  ${oneLine(t.spec.prompt, 40)}  ${oneLine(t.reason, 60)}\n`);
  return 0;
}

async function show(argv: string[]): Promise<number> {
  const a = parseArgs(argv, { values: ['daemon'], flags: ['json', 'help'] });
  if (a.options.has('help')) return void process.stdout.write(TASK_USAGE + '\n'), 0;
  const id = onlyId(a, 'show');
  const d = await daemonAsk<TaskDetailView>(daemonTarget(a.options.get('daemon')), 'GET', `/api/tasks/${encodeURIComponent(id)}`);
  const t = d.task;
  if (a.options.has('json')) {
    const out = { id: t.id, pane: t.spec.pane, status: t.status, reason: t.reason, reasonCode: t.reasonCode, iterations: t.iterations, tokensUsed: t.tokensUsed, task: t, iterationLog: d.iterations, events: d.events };
    return void process.stdout.write(printableJson(out, 2) + '\n'), 0;
  }
  const lines = [
    `${t.id}  ${t.status}${t.reasonCode ? ` (${t.reasonCode})` : ''}: ${t.reason}`,
    `pane ${t.spec.pane} · ${t.iterations}/${t.spec.limits.maxIterations} iterations · ${t.tokensUsed} tokens · agent time ${Math.round(t.agentMs / 1000)} s`,
    `prompt: ${t.spec.prompt}`,
    ...t.warnings.map((w) => `warning: ${w}`),
    '',
    ...d.iterations.map((i) => `#${i.n} ${new Date(i.sentAt).toISOString()} ${i.result ?? 'running'} → ${i.decision ?? '…'}  ${oneLine(i.prompt, 50)}${i.judge ? `  [judge: ${oneLine(i.judge.reason, 40)}]` : ''}`),
    '',
    ...d.events.slice(-30).map((e) => `${new Date(e.at).toISOString()} ${e.kind}: ${oneLine(e.detail, 100)}`),
  ];
  // Prompts, reasons, warnings and events hold the pane's and the person's text: each line printable.
  process.stdout.write(lines.map(printable).join('\n') + '\n');
  return 0;
}

async function act(verb: 'stop' | 'resume', argv: string[]): Promise<number> {
  const a = parseArgs(argv, { values: ['daemon'], flags: ['help'] });
  if (a.options.has('help')) return void process.stdout.write(TASK_USAGE + '\n'), 0;
  const id = onlyId(a, verb);
  const t = await daemonAsk<TaskView>(daemonTarget(a.options.get('daemon')), 'POST', `/api/tasks/${encodeURIComponent(id)}/${verb}`, verb === 'stop' ? { by: 'cli' } : undefined);
  process.stdout.write(`${t.id} ${t.status}\n`);
  return 0;
}

async function retry(argv: string[]): Promise<number> {
  const a = parseArgs(argv, { values: ['iterations', 'budget', 'daemon'], flags: ['help'] });
  if (a.options.has('help')) return void process.stdout.write(TASK_USAGE + '\n'), 0;
  const id = onlyId(a, 'retry');
  const body: Record<string, number> = {};
  for (const k of ['iterations', 'budget'] as const) {
    const v = a.options.get(k);
    if (v === undefined) continue;
    const n = Number(v);
    if (v === true || !Number.isInteger(n) || n < 1) throw new UsageError(`--${k} must be a whole number ≥ 1`);
    body[k] = n;
  }
  const t = await daemonAsk<TaskView>(daemonTarget(a.options.get('daemon')), 'POST', `/api/tasks/${encodeURIComponent(id)}/retry`, body);
  process.stdout.write(`${t.id} ${t.status} (max ${t.spec.limits.maxIterations} iterations)\n`);
  return 0;
}

function onlyId(a: ParsedArgs, verb: string): string {
  if (a.positional.length !== 1) throw new UsageError(`task ${verb} needs one task id (see termsupervisor task list)`);
  return a.positional[0]!;
}

/** Every value of a repeatable option, in order (`--fail A --fail=B`). */
function allValues(argv: string[], name: string): string[] {
  const out: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--') break;
    if (argv[i] === `--${name}` && i + 1 < argv.length) out.push(argv[++i]!);
    else if (argv[i]!.startsWith(`--${name}=`)) out.push(argv[i]!.slice(name.length + 3));
  }
  return out;
}

function oneLine(s: string, max: number): string {
  const t = printable(s.replace(/\s+/g, ' ').trim());
  return t.length > max ? t.slice(0, max - 1) + '…' : t;
}
