#!/usr/bin/env node
// Records one zoo variant: the zoo agent in a real PTY (node-pty), driven by the variant's steps like a person
// types, into an asciicast v2 (output "o", the driver's keys "i") and a truth.json whose events come from the
// agent's own timeline (never from the screen). The agent's exit ends the recording.
//   node tests/zoo/record-variant.mjs variant.json OUT_DIR
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { keyBytes, keyGapMs, prng } from '../../scripts/record/keys.mjs';
import { round, segments } from '../../scripts/record/truth.mjs';

const require = createRequire(import.meta.url);
const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
/** The timeline file is read this often (ms) while the driver waits on it. */
const POLL_MS = 10;
/** A driver wait gives up after this long (s): the agent's script never takes longer for one step. */
const WAIT_TIMEOUT_S = 30;
/** After its last step the driver waits this long (s) beyond the agent's own limit for it to exit. */
const EXIT_GRACE_S = 5;
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
/** A sleep that does not keep the process alive (the exit wait's deadline). */
const deadline = (ms) => new Promise((r) => setTimeout(r, ms).unref());

/** The agent program of a variant: tests/zoo/agents/<agent>-agent.mjs. */
export function agentPath(agent) {
  return join(ROOT, 'tests', 'zoo', 'agents', `${agent}-agent.mjs`);
}

/** Timeline kinds -> the truth events truth.mjs knows: an interrupt is the turn's end at rest (DONE); a denial is
 * the person's answer (the program works on until it says the turn ended, at once for these agents). */
export function truthEvents(timeline) {
  const out = [];
  for (const e of timeline) {
    if (e.kind === 'turn_interrupted') out.push({ t: e.t, kind: 'turn_complete', note: 'interrupted by the person' });
    else if (e.kind === 'approval_dismissed') out.push({ t: e.t, kind: 'approval_given', note: 'denied' });
    else if (e.kind === 'turn_failed') out.push({ ...e, note: e.note ?? 'the turn ended with an error shown' });
    else out.push(e);
  }
  return out;
}

function readTimeline(file) {
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l));
}

/** Records variant `v` ({name, agent, cols, rows, options, steps, seed}) into `outDir`. Returns the truth. */
export async function recordVariant(v, outDir, { gzip = true } = {}) {
  const scratch = mkdtempSync(join(tmpdir(), 'zoo-rec-'));
  const timelineFile = join(scratch, 'timeline.jsonl');
  const project = join(scratch, 'project');
  mkdirSync(project);
  const env = {
    PATH: process.env.PATH,
    HOME: scratch,
    LANG: 'C.UTF-8',
    TERM: 'xterm-256color',
    SHELL: '/bin/bash',
    ZOO_OPTIONS: JSON.stringify(v.options),
    ZOO_TIMELINE: timelineFile,
  };
  const pty = require('node-pty');
  const cast = [];
  const t0 = Date.now();
  const now = () => (Date.now() - t0) / 1000;
  const p = pty.spawn(process.execPath, [agentPath(v.agent)], { name: 'xterm-256color', cols: v.cols, rows: v.rows, cwd: project, env });
  let exitedAt = null;
  let exitCode = null;
  const exited = new Promise((r) =>
    p.onExit((e) => {
      exitedAt = now();
      exitCode = e.exitCode;
      r();
    }),
  );
  p.onData((d) => cast.push([now(), 'o', d]));

  const rand = prng(v.seed ?? 1);
  const press = async (name) => {
    const bytes = keyBytes(name);
    if (exitedAt !== null) throw new Error(`the agent exited before the driver pressed ${JSON.stringify(name)}`);
    cast.push([now(), 'i', bytes]);
    p.write(bytes);
    await sleep(keyGapMs(rand));
  };
  const count = (kinds) => readTimeline(timelineFile).filter((e) => kinds.includes(e.kind)).length;
  const until = async (pred, what) => {
    const end = Date.now() + WAIT_TIMEOUT_S * 1000;
    while (!pred()) {
      if (exitedAt !== null) throw new Error(`the agent exited while the driver waited for ${what}`);
      if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
      await sleep(POLL_MS);
    }
  };

  let failure = null;
  try {
    for (const st of v.steps) {
      if (st.wait === 'ready') await until(() => count(['ready']) >= 1, 'ready');
      else if (st.wait === 'event') await until(() => count([].concat(st.kind)) >= (st.n ?? 1), `${st.kind} #${st.n ?? 1}`);
      else if (st.sleep !== undefined) await sleep(st.sleep * 1000);
      else if (st.type !== undefined) for (const ch of st.type) await press(ch);
      else if (st.press !== undefined) for (const k of [].concat(st.press)) await press(k);
      else throw new Error(`unknown step ${JSON.stringify(st)}`);
    }
    await Promise.race([exited, deadline(((v.options.max_s ?? 40) + EXIT_GRACE_S) * 1000)]);
    if (exitedAt === null) throw new Error('the agent did not exit');
  } catch (e) {
    failure = e;
  }
  if (exitedAt === null) {
    try {
      p.kill('SIGKILL');
    } catch {
      /* gone */
    }
    await Promise.race([exited, sleep(1000)]);
  }
  const timeline = readTimeline(timelineFile);
  rmSync(scratch, { recursive: true, force: true });
  if (failure) {
    failure.message += `\nvariant ${v.name}; timeline: ${JSON.stringify(timeline)}`;
    throw failure;
  }

  const duration = round(exitedAt);
  const events = timeline.map((e) => ({ ...e, t: round((e.t - t0) / 1000) })).sort((a, b) => a.t - b.t);
  cast.sort((a, b) => a[0] - b[0]);
  const header = { version: 2, width: v.cols, height: v.rows, timestamp: Math.floor(t0 / 1000), duration, env: { TERM: 'xterm-256color', SHELL: '/bin/bash' } };
  const castText = [JSON.stringify(header), ...cast.map(([t, k, d]) => JSON.stringify([Number(t.toFixed(6)), k, d]))].join('\n') + '\n';
  const truth = {
    source: `zoo-${v.agent}`,
    scenario: v.scenario ?? '',
    cols: v.cols,
    rows: v.rows,
    duration,
    exit_code: exitCode,
    events,
    segments: segments(truthEvents(events), duration),
    truth_sources: {
      all: "the agent's own timeline (ZOO_TIMELINE), written by the program as it acted, on the recorder's clock (Date.now())",
      turn_interrupted: 'the turn ends at rest there (DONE)',
      approval_dismissed: 'the person answered (denied); the program ends the turn (turn_complete) at once',
    },
    variant: { agent: v.agent, seed: v.seed, options: v.options, steps: v.steps },
  };
  mkdirSync(outDir, { recursive: true });
  if (gzip) writeFileSync(join(outDir, 'session.cast.gz'), gzipSync(castText, { level: 9 }));
  else writeFileSync(join(outDir, 'session.cast'), castText);
  writeFileSync(join(outDir, 'truth.json'), JSON.stringify(truth, null, 1) + '\n');
  return truth;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const [file, out] = process.argv.slice(2);
  if (!file || !out) {
    console.error('usage: record-variant.mjs variant.json OUT_DIR');
    process.exit(2);
  }
  const v = JSON.parse(readFileSync(file, 'utf8'));
  const truth = await recordVariant(v, resolve(out), { gzip: !process.argv.includes('--plain') });
  console.log(JSON.stringify(truth.segments));
}
