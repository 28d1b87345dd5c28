#!/usr/bin/env node
// Records the real Claude Code CLI with termsupervisor's hooks installed, against a local fake Messages API, into
// tests/fixtures/recordings/claude-hooks-<scenario>/{session.cast,truth.json}. Not used by the tests (they replay the
// committed recordings); run it by hand to make or remake a recording:
//
//   npm install --prefix /work/tools/claude @anthropic-ai/claude-code@2.1.331     # never committed
//   npm run build
//   node scripts/record/claude/record.mjs [--claude PATH] [--out DIR] [--log FILE] scenario…   (or `all`)
//   node scripts/record/claude/record.mjs --no-hooks all      # the scenarios that have one: claude-<plainName>
//
// Each session gets a scratch HOME: ~/.claude.json marks onboarding done, the project folder trusted and the fake
// key approved; `bin/termsupervisor hooks install claude --home <scratch> --command <recorder shim>` installs the
// hooks exactly as a person would, with the shim in termsupervisor's place: it writes each call (the wall clock when
// it ran, its event argument, its stdin) to a folder, and the calls go into the cast as "h" events
// (docs/recording.md#hook-calls-in-a-recording). The updater, telemetry and nonessential traffic are turned off by env.
//
// Truth comes from the clocks only: the driver's (keys typed) and the backend's (request received, tool_use sent,
// final answer streamed), all one clock, seconds since the PTY was spawned.
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { Session, sleep } from './session.mjs';
import { startFakeAnthropic } from './fake-anthropic.mjs';
import { SCENARIOS } from './scenarios.mjs';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const DEFAULT_CLAUDE = '/work/tools/claude/node_modules/@anthropic-ai/claude-code-linux-x64/claude';
const FAKE_KEY = 'sk-ant-api03-recording-only-0000000000000000000000000000000000000000000000-AAAAAA';

const argv = process.argv.slice(2);
const opt = (k, d) => {
  const i = argv.indexOf(k);
  if (i < 0) return d;
  const v = argv[i + 1];
  argv.splice(i, 2);
  return v;
};
const claudeBin = opt('--claude', DEFAULT_CLAUDE);
const outDir = opt('--out', join(ROOT, 'tests', 'fixtures', 'recordings'));
const logFile = opt('--log', join(tmpdir(), 'claude-hooks-record.log'));
// Scratch homes live beside the installed CLI, away from /tmp (a shared machine's clean-ups sweep it mid-session).
const scratchBase = opt('--scratch', '/work/tools/claude/scratch');
// --no-hooks: the same sessions without hooks installed (screen only), for the scenarios that name a plainName.
const noHooks = argv.includes('--no-hooks');
const keep = argv.includes('--keep');
// A scenario with `plainOnly` is recorded without hooks only (its plainName), never as claude-hooks-<name>.
const names = (argv.includes('all') ? Object.keys(SCENARIOS) : argv.filter((a) => !a.startsWith('--'))).filter((n) => !SCENARIOS[n] || (noHooks ? SCENARIOS[n].plainName : !SCENARIOS[n].plainOnly));
if (names.length === 0 || names.some((n) => !SCENARIOS[n])) {
  console.error(`usage: record.mjs [--claude PATH] [--out DIR] [--log FILE] [--scratch DIR] [--no-hooks] [--keep] <${Object.keys(SCENARIOS).join('|')}|all>…`);
  process.exit(2);
}

const logLines = [];
const log = (s) => {
  logLines.push(s);
  process.stderr.write(s.length > 300 && !s.startsWith('---') ? s.slice(0, 300) + '…\n' : s + '\n');
};

const version = spawnSync(claudeBin, ['--version'], { encoding: 'utf8' }).stdout.trim().split(' ')[0];



async function record(name, scenario) {
  mkdirSync(scratchBase, { recursive: true });
  const scratch = mkdtempSync(join(scratchBase, `${name}-`));
  const home = join(scratch, 'home');
  const project = join(scratch, 'project');
  const hookDir = join(scratch, 'hook-calls');
  for (const d of [home, project, hookDir]) mkdirSync(d, { recursive: true });
  writeFileSync(join(home, '.claude.json'), JSON.stringify(claudeJson(project), null, 2));

  // The shim stands where termsupervisor would: `<shim> hook claude <Event>`, the payload on stdin.
  const shim = join(scratch, 'termsupervisor-record-hook');
  writeFileSync(shim, SHIM);
  chmodSync(shim, 0o755);
  if (!noHooks) {
    const inst = spawnSync(process.execPath, [join(ROOT, 'bin', 'termsupervisor'), 'hooks', 'install', 'claude', '--home', home, '--command', shim], { encoding: 'utf8' });
    if (inst.status !== 0) throw new Error(`hooks install failed: ${inst.stdout}${inst.stderr}`);
    log(inst.stdout.trim());
  }

  let session;
  const backend = startFakeAnthropic({ clock: () => session.clock(), replies: scenario.replies, log });
  const base = await backend.ready;
  const env = {
    HOME: home,
    PATH: '/usr/local/bin:/usr/bin:/bin',
    SHELL: '/bin/bash',
    TERM: 'xterm-256color',
    LANG: 'C.UTF-8',
    USER: 'recorder',
    ANTHROPIC_BASE_URL: base,
    ANTHROPIC_API_KEY: FAKE_KEY,
    DISABLE_AUTOUPDATER: '1',
    DISABLE_TELEMETRY: '1',
    DISABLE_ERROR_REPORTING: '1',
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
    TS_RECORD_HOOK_DIR: hookDir,
    ...(scenario.env ?? {}),
  };
  const args = ['--permission-mode', 'manual', ...(scenario.args ?? [])];
  log(`=== ${name}: ${claudeBin} ${args.join(' ')}`);
  // A scenario that ends the CLI may run it from a shell that stays (as in a tmux pane): its prompt comes back.
  const [file, argv0] = scenario.thenShell
    ? ['/bin/bash', ['-c', '"$0" "$@"; PS1=\'$ \' exec bash --norc --noprofile -i', claudeBin, ...args]]
    : [claudeBin, args];
  session = new Session({ file, args: argv0, env, cwd: project, log, cols: scenario.cols, rows: scenario.rows });
  const truth = { events: [] };
  const ev = (t, kind, extra = {}) => {
    truth.events.push({ t: round(t), kind, ...extra });
    log(`truth ${t.toFixed(3)} ${kind} ${JSON.stringify(extra)}`);
  };
  let segments;
  let endT = 0;
  let exitedByItself = false;
  try {
    await session.waitFor(/^❯(?:[\s\u00a0]|$)/, { what: 'the input box', timeoutS: 30 });
    await sleep(1500);
    segments = await scenario.drive({ s: session, backend, ev, sleep, hooks: () => readHookCalls(hookDir, session.epochMsAt0()).map(([t, , data]) => ({ t, ...JSON.parse(data) })) });
    endT = session.exited ? session.exited.t : session.clock();
    exitedByItself = session.exited !== null;
  } catch (e) {
    await session.dump('failure');
    throw e;
  } finally {
    session.kill();
    await Promise.race([session.exitPromise, sleep(3000)]);
    await backend.close().catch(() => {});
    backend.closeAll();
  }
  const hooks = readHookCalls(hookDir, session.epochMsAt0());
  // The recording ends where the scenario did: the recorder's own kill (and the SessionEnd it causes) is not in it.
  // A CLI that exited by itself may have run its last hook (SessionEnd) a moment after its pty closed.
  const lastHook = exitedByItself ? Math.max(0, ...hooks.map((h) => h[0]).filter((t) => t <= endT + 1)) : 0;
  const duration = Math.max(endT, lastHook);
  for (const h of hooks) log(`hook ${h[0].toFixed(3)} ${h[2].slice(0, 200)}`);
  const events = [...session.events, ...hooks].filter((e) => e[0] <= duration).sort((a, b) => a[0] - b[0]);
  const header = { version: 2, width: session.cols, height: session.rows, timestamp: Math.floor(session.epochMsAt0() / 1000), duration: round(duration), env: { TERM: 'xterm-256color', SHELL: '/bin/bash' } };
  const cast = [JSON.stringify(header), ...events.map((e) => JSON.stringify([Number(e[0].toFixed(6)), e[1], e[2]]))].join('\n') + '\n';
  if (!keep) rmSync(scratch, { recursive: true, force: true });
  return {
    cast,
    truth: {
      source: `claude-code ${version}`,
      scenario: `${noHooks ? 'No hooks installed (screen only). ' : 'Hooks installed (termsupervisor hooks install claude). '}${scenario.text}`,
      cols: session.cols,
      rows: session.rows,
      duration: round(duration),
      events: truth.events,
      segments: segments(duration).map((g) => ({ start: round(g.start), end: round(g.end), state: g.state })),
      notes: {
        clock: 'seconds since the CLI was spawned in the PTY (same clock as session.cast, the backend and the hook calls)',
        t: 'backend/driver time of the event (never read from the screen)',
        hooks: noHooks ? 'none installed' : 'termsupervisor hooks installed (hooks install claude); each hook call is an "h" event in session.cast at the time the hook command ran',
        cli_args: args,
        env_overrides: scenario.env ?? {},
        recorder: 'scripts/record/claude/record.mjs',
        backend_requests: backend.requests.map((r) => ({ t: round(r.t), main: r.main, last: r.last })),
      },
    },
  };
}

/** The hook calls the shim kept, as cast events [t, "h", json] on the session's clock. */
function readHookCalls(dir, epochMsAt0) {
  const out = [];
  for (const f of readdirSync(dir)) {
    const m = /^(\d+)\.\d+\.call$/.exec(f);
    if (!m) continue;
    const text = readFileSync(join(dir, f), 'utf8');
    const nl = text.indexOf('\n');
    const event = text.slice(0, nl);
    const raw = text.slice(nl + 1);
    let payload;
    try {
      payload = JSON.parse(raw);
    } catch {
      payload = raw;
    }
    const t = (Number(BigInt(m[1]) / 1000n) / 1000 - epochMsAt0) / 1000;
    out.push([Math.max(0, t), 'h', JSON.stringify({ agent: 'claude', event, payload })]);
  }
  return out.sort((a, b) => a[0] - b[0]);
}

function claudeJson(project) {
  return {
    hasCompletedOnboarding: true,
    lastOnboardingVersion: '2.1.331',
    theme: 'dark',
    autoUpdates: false,
    customApiKeyResponses: { approved: [FAKE_KEY.slice(-20)], rejected: [] },
    projects: { [project]: { hasTrustDialogAccepted: true, hasCompletedProjectOnboarding: true, allowedTools: [] } },
  };
}

// The hook command: keeps the call (wall clock in ns when it ran, the event argument, the payload) and exits 0.
const SHIM = `#!/bin/sh
# Stands in for termsupervisor in the hooks of a recording: $1=hook $2=claude $3=<Event>, payload on stdin.
t=$(date +%s%N)
f="$TS_RECORD_HOOK_DIR/$t.$$"
{ printf '%s\\n' "$3"; cat; } > "$f.tmp" && mv "$f.tmp" "$f.call"
exit 0
`;

function round(x) {
  return Math.round(x * 1000) / 1000;
}

// Last: the shim and the helpers above are defined by now.
for (const name of names) {
  const rec = await record(name, SCENARIOS[name]);
  const dir = join(outDir, noHooks ? SCENARIOS[name].plainName : `claude-hooks-${name}`);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'session.cast'), rec.cast);
  writeFileSync(join(dir, 'truth.json'), JSON.stringify(rec.truth, null, 2) + '\n');
  log(`wrote ${dir}`);
}
writeFileSync(logFile, logLines.join('\n') + '\n');
