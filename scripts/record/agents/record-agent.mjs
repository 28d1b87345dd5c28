#!/usr/bin/env node
// Records a real agent CLI (Codex, Gemini CLI) in a real PTY against a local scripted model backend, with
// termsupervisor's hooks installed and every hook call kept in the cast as an "h" event. Truth comes from the
// driver's keys and the backend's clock, never from the screen (the screen only paces the driver: it waits for the
// input box before typing). Usage and the scenario format: docs/recording.md.
//   node scripts/record/agents/record-agent.mjs scripts/record/scenarios/codex-hooks-title.mjs [--out DIR]
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { homedir } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { keyBytes, keyGapMs, prng } from '../keys.mjs';
import { AGENT_BIN, CHAT_AGENTS, readHookLog, setupAgent } from './agent-setup.mjs';
import { startResponsesBackend } from './responses-backend.mjs';
import { startGeminiBackend } from './gemini-backend.mjs';
import { startChatBackend } from './chat-backend.mjs';
import { agentSegments } from './agent-truth.mjs';
import { round } from '../truth.mjs';

const require = createRequire(import.meta.url);
const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
/** The hook log and the screen are looked at this often (ms). */
const POLL_MS = 10;
const DEFAULT_TIMEOUT_S = 30;
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

function hashSeed(s) {
  let h = 2166136261;
  for (const c of s) h = Math.imul(h ^ c.charCodeAt(0), 16777619);
  return h >>> 0;
}

export async function recordAgent(sc, opts = {}) {
  const name = opts.name ?? sc.name;
  const agent = sc.agent;
  // `folder`: under tests/fixtures/ (an agent without a profile yet may record outside `recordings`, which is scored)
  const out = resolve(opts.out ?? join(ROOT, 'tests', 'fixtures', sc.folder ?? 'recordings', name));
  const cols = sc.cols ?? 120;
  const rows = sc.rows ?? 40;
  // Not under the system's temporary dir: Codex refuses to set up its helper binaries there and says so on screen,
  // which no person's session shows.
  const scratchRoot = process.env.TS_REC_SCRATCH ?? join(homedir(), '.cache', 'termsupervisor-rec');
  mkdirSync(scratchRoot, { recursive: true });
  const scratch = mkdtempSync(join(scratchRoot, 'agent-'));
  const home = join(scratch, 'home');
  const project = join(scratch, 'project');
  mkdirSync(home, { recursive: true });
  mkdirSync(project, { recursive: true });
  for (const [f, text] of Object.entries(sc.files ?? {})) writeFileSync(join(project, f), text);

  const t0 = performance.timeOrigin + performance.now();
  const now = () => (performance.timeOrigin + performance.now() - t0) / 1000;
  const events = [];
  const event = (e) => events.push({ ...e, t: round(e.t) });
  const counts = {};
  const onBackend = (e) => {
    counts[e.kind] = (counts[e.kind] ?? 0) + 1;
    event(e);
  };
  const start = agent === 'codex' ? startResponsesBackend : CHAT_AGENTS.has(agent) ? startChatBackend : startGeminiBackend;
  const backend = await start({ replies: sc.replies, now, onEvent: onBackend });
  const { env: agentEnv, log } = setupAgent(agent, { root: ROOT, scratch, home, project, backendUrl: backend.url, hooks: sc.hooks !== false, settings: sc.settings });
  const env = { PATH: process.env.PATH, USER: process.env.USER ?? 'root', LANG: 'C.UTF-8', TERM: 'xterm-256color', SHELL: '/bin/bash', ...agentEnv, ...(sc.env ?? {}) };

  // A headless terminal answers the CLI's queries (cursor position, device attributes, colours) as a terminal
  // would, and lets the driver wait for the input box. Its answers are not keys a person typed: not in the cast.
  const { Terminal } = require('@xterm/headless');
  const term = new Terminal({ cols, rows, allowProposedApi: true });
  const pty = require('node-pty');
  const cast = [];
  const p = pty.spawn(AGENT_BIN[agent], sc.args ?? [], { name: 'xterm-256color', cols, rows, cwd: project, env });
  let exited = false;
  const exitedP = new Promise((r) =>
    p.onExit(() => {
      exited = true;
      r();
    }),
  );
  let capturing = true;
  p.onData((d) => {
    if (capturing) cast.push([now(), 'o', d]);
    term.write(d);
  });
  term.onData((d) => {
    if (!exited) p.write(d);
  });
  const screenText = () => {
    const b = term.buffer.active;
    const lines = [];
    for (let i = 0; i < rows; i++) lines.push(b.getLine(b.viewportY + i)?.translateToString(true) ?? '');
    return lines.join('\n');
  };

  let hookOffset = 0;
  const pollHooks = () => {
    const r = readHookLog(log, hookOffset);
    hookOffset = r.offset;
    for (const c of r.calls) cast.push([c.epoch - t0 / 1000, 'h', JSON.stringify({ agent: c.agent, event: c.event, payload: c.payload })]);
  };
  const timer = setInterval(pollHooks, POLL_MS);

  const rand = prng(hashSeed(name));
  const s = { mode: 'starting', line: '', queued: [] };
  const press = async (key, opt = {}) => {
    const t = now();
    const bytes = keyBytes(key);
    p.write(bytes);
    cast.push([t, 'i', bytes]);
    if (opt.interrupt && s.mode === 'running') {
      // the key that stops the running turn (after any arming key before it): the turn ends there, at rest
      event({ t, kind: 'interrupt_sent', key });
      event({ t, kind: 'turn_interrupted', note: 'the person interrupted the turn: at rest from this key' });
      s.mode = 'prompt';
    } else if (opt.neutral) {
      // a key inside the question that neither answers nor leaves it (moving to a button, opening a follow-up
      // dialog of the same question): the question still waits
    } else if (opt.queue) {
      event({ t, kind: 'prompt_queued', text: s.line, key, note: 'queued while the turn runs: the CLI sends it by itself when the turn ends' });
      s.queued.push(s.line);
      s.line = '';
    } else if (opt.deny && s.mode === 'question') {
      // the key that picks "reject" on the CLI's approval question (Enter on a Reject button): the turn ends there
      event({ t, kind: 'approval_dismissed', answer: key, note: 'the person rejected the command at the approval question: the CLI drops it and the turn ends' });
      s.mode = 'prompt';
    } else if (key === 'Enter') {
      const text = s.line;
      s.line = '';
      if (opt.command) {
        event({ t, kind: 'cli_command', text, ...(opt.ends ? { ends: true } : {}), note: 'a command to the CLI itself, not a prompt to the model' });
        if (opt.ends) s.mode = 'ended';
      } else if (s.mode === 'prompt') {
        event({ t, kind: 'prompt_submitted', text });
        s.mode = 'running';
      } else if (s.mode === 'running') {
        event({ t, kind: 'prompt_queued', text, note: 'typed while the turn runs: the CLI sends it by itself when the turn ends' });
        s.queued.push(text);
      } else if (s.mode === 'question') {
        event({ t, kind: 'approval_given', answer: key });
        s.mode = 'running';
      }
    } else if (key === 'Esc' && s.mode === 'question' && opt.dismiss) {
      event({ t, kind: 'approval_dismissed', note: 'Esc at the approval question: the CLI drops the command and the turn ends' });
      s.mode = 'prompt';
    } else if (key === 'Backspace') s.line = s.line.slice(0, -1);
    else if (key.length === 1) s.line += key;
    await sleep(opt.gapMs ?? keyGapMs(rand));
    return t;
  };
  const until = async (pred, timeoutS, what) => {
    const end = now() + timeoutS;
    while (!pred()) {
      if (now() > end) throw new Error(`timed out after ${timeoutS} s waiting for ${what} (mode ${s.mode})\n${screenText()}`);
      await sleep(POLL_MS);
    }
  };

  const runStep = async (step) => {
    const timeout = step.timeout ?? DEFAULT_TIMEOUT_S;
    if (step.type !== undefined) {
      for (const ch of step.type) await press(ch);
      if (step.enter) await press('Enter', { command: step.command, ends: step.ends, queue: step.queue });
    } else if (step.press !== undefined) {
      const keys = [].concat(step.press);
      for (let i = 0; i < keys.length; i++) await press(keys[i], { dismiss: step.dismiss, queue: step.queue, interrupt: step.interrupt && i === keys.length - 1 });
    } else if (step.answer !== undefined) {
      if (s.mode !== 'question') throw new Error(`answer step but no question is pending (mode ${s.mode})`);
      const keys = [].concat(step.answer);
      for (let i = 0; i < keys.length; i++) await press(keys[i], { deny: step.deny && i === keys.length - 1, neutral: step.neutral });
    } else if (step.wait !== undefined) {
      const w = step.wait;
      if (typeof w === 'number') await sleep(w * 1000);
      else if (w === 'screen') {
        // pacing only: the driver types once the input box is drawn, as a person would
        const re = new RegExp(step.text, 'm');
        await until(() => re.test(screenText()), timeout, `the screen to show ${step.text}`);
        if (s.mode === 'starting') s.mode = 'prompt';
      } else if (w === 'approval') {
        const n = (step.n ?? 1);
        await until(() => (counts.approval_requested ?? 0) >= n, timeout, 'the backend to ask for a command');
        s.mode = 'question';
      } else if (w === 'turn_end') {
        const n = step.n ?? 1;
        await until(() => (counts.turn_complete ?? 0) >= n, timeout, `turn end #${n} (backend)`);
        if (s.mode === 'running' && (counts.turn_complete ?? 0) >= (step.last ?? n)) s.mode = 'prompt';
      } else if (w === 'quiet') {
        // the CLI's retries are over: no request reached the backend for `seconds` (its longest retry gap is shorter)
        let last = now();
        let seen = counts.backend_request ?? 0;
        await until(() => {
          if ((counts.backend_request ?? 0) !== seen) {
            seen = counts.backend_request ?? 0;
            last = now();
          }
          return now() - last >= step.seconds;
        }, timeout, `${step.seconds} s without a backend request`);
        if (s.mode === 'running') s.mode = 'prompt';
      } else if (w === 'request') {
        await until(() => (counts.backend_request ?? 0) >= step.n, timeout, `backend request #${step.n}`);
      } else if (w === 'exit') {
        await Promise.race([exitedP, sleep(timeout * 1000)]);
        if (!exited) throw new Error('the CLI did not exit');
      } else throw new Error(`unknown wait ${JSON.stringify(w)}`);
    } else throw new Error(`unknown step ${JSON.stringify(step)}`);
  };

  let failure = null;
  try {
    for (const step of sc.steps) await runStep(step);
    await sleep((sc.tail ?? 3) * 1000);
  } catch (e) {
    failure = e;
  }
  pollHooks();
  capturing = false; // the hangup that ends the program is not part of the session
  const duration = round(now());
  clearInterval(timer);
  if (!exited) {
    try {
      process.kill(-p.pid, 'SIGHUP');
    } catch {
      /* gone */
    }
    await Promise.race([exitedP, sleep(1500)]);
  }
  await backend.close();
  await stopScratchProcesses(scratch);
  const screen = screenText();
  rmSync(scratch, { recursive: true, force: true, maxRetries: 5 });
  if (failure) {
    failure.message += `\nevents so far: ${JSON.stringify(events)}`;
    throw failure;
  }

  cast.sort((a, b) => a[0] - b[0]);
  const header = { version: 2, width: cols, height: rows, timestamp: Math.floor(t0 / 1000), duration, env: { TERM: 'xterm-256color', SHELL: '/bin/bash' } };
  const castText = [JSON.stringify(header), ...cast.map(([t, k, d]) => JSON.stringify([Number(Math.max(0, t).toFixed(6)), k, d]))].join('\n') + '\n';
  const hooks = cast.filter((c) => c[1] === 'h').map(([t, , d]) => ({ t: round(t), ...JSON.parse(d) }));
  const truth = {
    source: sc.source,
    scenario: sc.scenario ?? name,
    cols,
    rows,
    duration,
    transport: 'pty',
    events: events.sort((a, b) => a.t - b.t),
    segments: agentSegments(events, duration),
    hooks: hooks.map((h) => ({ t: h.t, agent: h.agent, event: h.event || h.payload?.type || '', ...(h.payload?.['thread-id'] ? { thread: h.payload['thread-id'] } : {}), ...(h.payload?.session_id ? { session: h.payload.session_id } : {}) })),
    truth_sources: {
      prompt_submitted: "driver time of the Enter that submits a prompt at the CLI's input box",
      prompt_queued: 'driver time of the Enter that queues a prompt while a turn runs (no new turn: the CLI sends it itself when the turn ends)',
      approval_requested: 'backend time at which the function call that needs approval finished streaming',
      approval_given: 'driver time of the key that answers the approval question',
      approval_dismissed: 'driver time of Esc (or of the key that picks Reject) at the approval question: the turn ends there (DONE), unless the CLI then asks the model again (RUNNING on)',
      turn_interrupted: 'driver time of the key that interrupts the running turn (Esc; opencode: the second Esc): at rest (DONE) from there',
      api_error: 'backend time of an HTTP error reply; the last of a turn, with no request of the turn after it, is the failure (the CLI gave up: FAILED), the others were retried (RUNNING on)',
      turn_complete: "backend time at which the turn's final answer finished streaming; one followed by the queued prompt's request, with no key from the driver between, is not a finish",
      turn_failed: 'backend time of the last HTTP error reply of a turn (no request of the turn followed it: the CLI gave up and shows the error)',
      cli_command: 'driver time of the Enter of a command to the CLI itself (/quit): no turn',
      hooks: "each hook call as the installed hook command received it (recorder's clock), also in the cast as 'h' events: informative here",
    },
    recorder: `scripts/record/agents/record-agent.mjs ${opts.scenarioFile ? basename(opts.scenarioFile) : ''}`.trim(),
  };
  mkdirSync(out, { recursive: true });
  writeFileSync(join(out, 'session.cast'), castText);
  writeFileSync(join(out, 'truth.json'), JSON.stringify(truth, null, 1) + '\n');
  return { out, truth, screen };
}

/** Codex leaves a background `codex app-server` (per CODEX_HOME) running: the ones this recording started go. */
async function stopScratchProcesses(scratch) {
  const pids = [];
  for (const pid of readdirSync('/proc').filter((d) => /^\d+$/.test(d))) {
    let cmd = '';
    try {
      cmd = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
    } catch {
      continue;
    }
    if (Number(pid) !== process.pid && cmd.includes(scratch)) {
      try {
        process.kill(Number(pid), 'SIGTERM');
        pids.push(Number(pid));
      } catch {
        /* gone */
      }
    }
  }
  const alive = (pid) => {
    try {
      process.kill(pid, 0);
      return true;
    } catch {
      return false;
    }
  };
  for (let i = 0; i < 100 && pids.some(alive); i++) await sleep(20);
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  const opt = (k) => {
    const i = args.indexOf(k);
    return i >= 0 ? args[i + 1] : undefined;
  };
  const files = args.filter((a, i) => !a.startsWith('--') && !['--out', '--name'].includes(args[i - 1]));
  if (!files.length) {
    console.error('usage: node scripts/record/agents/record-agent.mjs <scenario.mjs>... [--out DIR] [--name NAME] [--screen]');
    process.exit(2);
  }
  for (const f of files) {
    const sc = (await import(pathToFileURL(resolve(f)).href)).default;
    const { out, truth, screen } = await recordAgent(sc, { out: opt('--out'), name: opt('--name'), scenarioFile: f });
    console.log(`${out}: ${truth.duration} s, ${truth.segments.map((x) => `${x.state}@${x.start}`).join(' ')}; hooks ${truth.hooks.map((h) => `${h.event}@${h.t}`).join(' ')}`);
    if (args.includes('--screen')) console.log(screen);
  }
  process.exit(0);
}
