#!/usr/bin/env node
// Records a shell program in a real terminal from a scenario, with truth from the driver's and the program's
// clocks (never from the screen). Usage and the scenario format: docs/recording.md.
//   node scripts/record/record.mjs scripts/record/scenarios/<name>.mjs [--out DIR] [--tmux] [--name NAME]
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { keyGapMs, prng } from './keys.mjs';
import { SideReader, writeHooks } from './side-channel.mjs';
import { shellStart } from './shells.mjs';
import { segments, round } from './truth.mjs';
import { TtyWatch, comm } from './tty-watch.mjs';
import { PtyTransport, TmuxTransport } from './transports.mjs';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
/** /proc is sampled this often (ms): the blocked-on-the-person moment is known to this precision. */
const POLL_MS = 10;
/** A blocked spell counts only when it starts this long after the last key (ms): right after a key the reader
 * may not have woken yet, and its old read would pass for a new one. */
const AFTER_KEY_MS = 15;
/** Samples in a row that a blocked spell needs before it counts (one sample can catch a passing read). */
const SPELL_SAMPLES = 2;
const DEFAULT_TIMEOUT_S = 30;

async function loadScenario(file) {
  if (file.endsWith('.json')) return JSON.parse(readFileSync(file, 'utf8'));
  return (await import(pathToFileURL(resolve(file)).href)).default;
}

function hashSeed(s) {
  let h = 2166136261;
  for (const c of s) h = Math.imul(h ^ c.charCodeAt(0), 16777619);
  return h >>> 0;
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

export async function record(sc, opts = {}) {
  const name = opts.name ?? sc.name;
  const out = resolve(opts.out ?? join(ROOT, 'tests', 'fixtures', 'recordings', name));
  const cols = opts.cols ?? sc.cols ?? 120;
  const rows = opts.rows ?? sc.rows ?? 40;
  const scratch = mkdtempSync(join(tmpdir(), 'ts-rec-'));
  const cwd = join(scratch, sc.dir ?? 'project');
  const home = join(scratch, 'home');
  mkdirSync(cwd, { recursive: true });
  mkdirSync(home, { recursive: true });
  const hooks = writeHooks(scratch, { ps1: sc.ps1 ?? 'user@host:\\W$ ' });
  const env = {
    PATH: process.env.PATH,
    HOME: home,
    USER: process.env.USER ?? 'root',
    LANG: 'C.UTF-8',
    TERM: 'xterm-256color',
    SHELL: '/bin/bash',
    TS_SIDE: hooks.side,
    ...(sc.env ?? {}),
  };
  const ctx = { dir: cwd, scratch, home, env };
  if (typeof sc.setup === 'function') await sc.setup(ctx);
  else for (const cmd of sc.setup ?? []) execFileSync('bash', ['-c', cmd], { cwd, env, stdio: ['ignore', 'ignore', 'inherit'] });

  // zsh and fish: their own line editors and the scenario's prompt, with the same side channel as bash.
  const shell = sc.shell && sc.shell !== 'bash' ? shellStart(sc.shell, scratch, { prompt: sc.prompt, rprompt: sc.rprompt }) : null;
  if (shell) Object.assign(env, shell.env);
  const argv = sc.argv ?? shell?.argv ?? ['bash', '--rcfile', hooks.rc, '-i'];
  const transport = opts.tmux ? new TmuxTransport() : new PtyTransport();
  const cast = [];
  const events = [];
  const fg = [];
  const fgIo = [];
  const rand = prng(hashSeed(name));
  const t0 = { ms: 0 };
  const now = () => (performance.timeOrigin + performance.now() - t0.ms) / 1000;
  let lastOutput = 0;
  const s = {
    mode: 'starting', // prompt | running | question | rest | rest-running
    line: '',
    pending: null,
    lastKeyAt: -1,
    spell: null, // {pid, start, n}
    restNote: undefined,
  };

  let capturing = true;
  const onOutput = (data) => {
    const t = now();
    lastOutput = t;
    if (capturing) cast.push([t, 'o', data]);
  };
  t0.ms = performance.timeOrigin + performance.now();
  await transport.start({ argv, cwd, env, cols, rows, scratch }, onOutput);
  const side = new SideReader(hooks.side);
  const watch = new TtyWatch(transport.shellPid, transport.tty);
  const fromEpoch = (e) => e - t0.ms / 1000;
  if (!sc.argv) s.mode = 'starting';
  else s.mode = sc.startMode ?? 'running';

  const event = (e) => {
    events.push({ ...e, t: round(e.t) });
  };

  // One poll: who is in front and is it blocked on the tty (/proc), then the program's side channel.
  const poll = () => {
    const t = now();
    const smp = watch.sample(performance.timeOrigin + performance.now());
    if (process.env.REC_DEBUG && smp) console.error(t.toFixed(3), JSON.stringify(smp), s.mode);
    if (smp) {
      const lastFg = fg[fg.length - 1];
      if (!lastFg || lastFg.pid !== smp.pgid) fg.push({ t: round(t), name: smp.name, pid: smp.pgid });
      const io = smp.blocked ? 'input_wait' : 'busy_or_other';
      const lastIo = fgIo[fgIo.length - 1];
      if (!lastIo || lastIo.pid !== smp.pgid || lastIo.state !== io) fgIo.push({ t: round(t), name: smp.name, pid: smp.pgid, state: io, syscall: smp.syscall });
      if (smp.blocked && t * 1000 >= (s.lastKeyAt + AFTER_KEY_MS / 1000) * 1000) {
        if (s.spell && s.spell.pid === smp.pid) s.spell.n++;
        else s.spell = { pid: smp.pid, start: t, n: 1, name: comm(smp.pid), how: smp.how };
      } else s.spell = null;
    }
    for (const l of side.poll()) {
      const te = fromEpoch(l.epoch);
      if (l.what === 'start') event({ t: te, kind: 'command_started', text: s.pending?.text, source: 'side channel (bash PS0)' });
      else if (l.what === 'cont') {
        event({ t: te, kind: 'continuation_prompt', text: s.pending?.text, source: 'side channel (python sys.ps2)' });
        s.pending = null;
        s.mode = 'prompt';
      } else if (l.what === 'end') {
        if (s.pending) {
          event({ t: te, kind: l.code === 0 ? 'turn_complete' : 'turn_failed', text: s.pending.text, exit: l.code, source: 'side channel (bash PROMPT_COMMAND / python sys.ps1)' });
        } else if (s.mode === 'starting') event({ t: te, kind: 'shell_ready', shell_pid: transport.shellPid });
        s.pending = null;
        s.mode = 'prompt';
        s.spell = null;
      }
    }
    // A full-screen program at rest that was given keys: at rest again once it blocks on the tty again.
    if (s.mode === 'rest-running' && spellReady()) {
      event({ t: s.spell.start, kind: 'program_at_rest', process: s.spell.name, how: s.spell.how, source: '/proc: foreground process blocked reading the tty', ...(s.restNote ? { note: s.restNote } : {}) });
      s.mode = 'rest';
    }
  };
  const spellReady = () => s.spell !== null && s.spell.n >= SPELL_SAMPLES && s.mode !== 'prompt';
  const timer = setInterval(poll, POLL_MS);

  const until = async (pred, timeoutS, what) => {
    const end = now() + timeoutS;
    while (!pred()) {
      if (now() > end) throw new Error(`timed out after ${timeoutS} s waiting for ${what} (mode ${s.mode})`);
      await sleep(POLL_MS / 2);
    }
  };

  const keyWritten = (name, bytes, t) => {
    if (transport.keysVisible) cast.push([t, 'i', bytes]);
    s.lastKeyAt = t;
    s.spell = null;
  };

  // One key (a name or one character) as a person presses it; Enter's meaning comes from the driver's mode.
  const press = async (name, opt = {}) => {
    const t = now();
    const bytes = transport.send(name);
    keyWritten(name, bytes, t);
    if (opt.answer) {
      // the key that answers a question (its Enter, or a lone key such as Ctrl-C): marked before the pause, as the
      // program may end at once
      event({ t, kind: 'approval_given', answer: opt.answer });
      s.mode = 'running';
      s.line = '';
    } else if (name === 'Enter') {
      if (s.mode === 'question') {
        event({ t, kind: 'approval_given', answer: s.line || '<Enter>' });
        s.mode = 'running';
      } else if (s.mode === 'prompt') {
        event({ t, kind: 'prompt_submitted', text: s.line, ...(opt.mark ?? {}) });
        s.pending = { text: s.line };
        s.mode = 'running';
      } else if (s.mode === 'rest') {
        event({ t, kind: 'keys_sent', keys: 'Enter' });
        s.mode = 'rest-running';
      } else event({ t, kind: 'keys_sent', keys: 'Enter', starts: false, note: 'typed ahead while a command ran' });
      s.line = '';
    } else {
      if (name === 'Backspace') s.line = s.line.slice(0, -1);
      else if (name.length === 1) s.line += name;
      if (s.mode === 'rest') {
        event({ t, kind: 'keys_sent', keys: name });
        s.mode = 'rest-running';
      }
    }
    await sleep(opt.gapMs ?? keyGapMs(rand));
    return t;
  };

  const typeText = async (text) => {
    for (const ch of text) await press(ch);
  };

  const runStep = async (step) => {
    const timeout = step.timeout ?? DEFAULT_TIMEOUT_S;
    if (step.type !== undefined) {
      await typeText(step.type);
      // silent_failure: the scenario's word that this command fails without printing anything that says so
      if (step.enter) await press('Enter', step.silent_failure ? { mark: { silent_failure: true } } : {});
    } else if (step.press !== undefined) {
      for (const k of [].concat(step.press)) await press(k);
    } else if (step.answer !== undefined) {
      if (s.mode !== 'question') throw new Error(`answer step but no question is pending (mode ${s.mode})`);
      const keys = Array.isArray(step.answer) ? step.answer : [...step.answer, ...(step.enter === false ? [] : ['Enter'])];
      const shown = Array.isArray(step.answer) ? step.answer.join(' ') : step.answer || '<Enter>';
      for (let i = 0; i < keys.length; i++) await press(keys[i], i === keys.length - 1 ? { answer: shown } : {});
    } else if (step.wait !== undefined) {
      const w = typeof step.wait === 'number' ? { seconds: step.wait } : typeof step.wait === 'string' ? { for: step.wait, ...step } : step.wait;
      if (w.seconds !== undefined && !w.for) await sleep(w.seconds * 1000);
      else if (w.for === 'command_end') await until(() => s.mode === 'prompt', timeout, 'the command to end (side channel)');
      else if (w.for === 'blocked') {
        await until(spellReady, timeout, 'the program to block on the tty');
        const means = w.means ?? 'question';
        if (means === 'question') {
          event({ t: s.spell.start, kind: 'approval_requested', process: s.spell.name, how: s.spell.how, source: '/proc: foreground process blocked reading the tty' });
          s.mode = 'question';
        } else {
          s.restNote = w.note;
          event({ t: s.spell.start, kind: 'program_at_rest', process: s.spell.name, how: s.spell.how, source: '/proc: foreground process blocked reading the tty', ...(w.note ? { note: w.note } : {}) });
          s.mode = 'rest';
        }
        s.spell.n = -1e9; // consumed: the same spell does not count twice
      } else if (w.for === 'quiet') {
        const q = w.seconds ?? 0.5;
        await until(() => now() - lastOutput >= q, timeout, `${q} s of quiet output`);
      } else throw new Error(`unknown wait ${JSON.stringify(step.wait)}`);
    } else throw new Error(`unknown step ${JSON.stringify(step)}`);
  };

  let failure = null;
  try {
    if (!sc.argv) await until(() => s.mode === 'prompt', DEFAULT_TIMEOUT_S, 'the shell prompt');
    for (const step of sc.steps) await runStep(step);
    await sleep((sc.tail ?? 3) * 1000);
  } catch (e) {
    failure = e;
  }
  clearInterval(timer);
  poll();
  capturing = false; // the hangup that ends the program is not part of the session
  const duration = round(now());
  await transport.stop();
  if (typeof sc.teardown === 'function') await sc.teardown(ctx);
  rmSync(scratch, { recursive: true, force: true });
  if (failure) throw failure;

  const header = { version: 2, width: cols, height: rows, timestamp: Math.floor(t0.ms / 1000), duration, env: { TERM: 'xterm-256color', SHELL: env.SHELL } };
  const castText = [JSON.stringify(header), ...cast.map(([t, k, d]) => JSON.stringify([Number(t.toFixed(6)), k, d]))].join('\n') + '\n';
  const truth = {
    source: sc.source ?? bashVersion(),
    scenario: sc.scenario ?? name,
    cols,
    rows,
    duration,
    transport: transport.kind,
    events,
    segments: segments(events, duration),
    fg,
    fg_io: fgIo,
    truth_sources: {
      prompt_submitted: "driver time of the Enter keystroke at the shell's prompt (also in the cast as an 'i' event when keys are visible)",
      approval_given: 'driver time of the last key of the answer',
      command_started: 'bash PS0 writing $EPOCHREALTIME to a side file; no visible bytes',
      'turn_complete/turn_failed': 'bash PROMPT_COMMAND (or python sys.ps1 with a sys.excepthook flag) writing the time and exit status to a side file before the prompt is drawn; exit != 0 -> FAILED',
      approval_requested: "first of two 10 ms /proc samples where the foreground process group sleeps reading the pane's tty (read, or select/poll/epoll on it), after the driver's last key; the scenario says that block is a question",
      program_at_rest: 'the same /proc block, which the scenario says is a program at rest (a pager, an editor)',
      IDLE: 'from start until the first Enter',
    },
    recorder: `scripts/record/record.mjs ${opts.scenarioFile ? basename(opts.scenarioFile) : ''}${opts.tmux ? ' --tmux' : ''}`.trim(),
  };
  if (!transport.keysVisible) truth.notes = 'recorded in a tmux pane: the cast holds the pane output only (control mode %output), as the daemon sees it; typed keys are in the truth events only';
  mkdirSync(out, { recursive: true });
  writeFileSync(join(out, 'session.cast'), castText);
  writeFileSync(join(out, 'truth.json'), JSON.stringify(truth, null, 1) + '\n');
  return { out, truth };
}

function bashVersion() {
  const v = /version (\d+\.\d+\.\d+)/.exec(execFileSync('bash', ['--version'], { encoding: 'utf8' }));
  return `bash ${v ? v[1] : '?'}`;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  const opt = (k) => {
    const i = args.indexOf(k);
    return i >= 0 ? args[i + 1] : undefined;
  };
  const files = args.filter((a, i) => !a.startsWith('--') && !['--out', '--name', '--cols', '--rows'].includes(args[i - 1]));
  if (!files.length) {
    console.error('usage: node scripts/record/record.mjs <scenario.mjs|.json>... [--out DIR] [--name NAME] [--tmux] [--cols N --rows N]');
    process.exit(2);
  }
  for (const f of files) {
    const sc = await loadScenario(f);
    const tmux = args.includes('--tmux') || sc.transport === 'tmux';
    const size = { cols: opt('--cols') ? Number(opt('--cols')) : undefined, rows: opt('--rows') ? Number(opt('--rows')) : undefined };
    const { out, truth } = await record(sc, { out: opt('--out'), name: opt('--name'), tmux, scenarioFile: f, ...size });
    console.log(`${out}: ${truth.duration} s, ${truth.segments.map((x) => `${x.state}@${x.start}`).join(' ')}`);
  }
  process.exit(0);
}
