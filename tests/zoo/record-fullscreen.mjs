#!/usr/bin/env node
// Records the fullscreen zoo agent's variants (fullscreen-variants.mjs) in a real PTY: asciicast v2 with "o" (output)
// and "i" (keys typed) events, and truth.json from the agent's own timeline (the zoo protocol), with times relative
// to the spawn; segments by scripts/record/truth.mjs. The driver types at a person's pace and waits on the timeline,
// never on the screen.
//   node tests/zoo/record-fullscreen.mjs [--out tests/fixtures/zoo] [--only 1,5,12]
import pty from 'node-pty';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { segments, round } from '../../scripts/record/truth.mjs';
import { keyBytes, keyGapMs, prng } from '../../scripts/record/keys.mjs';
import { VARIANTS } from './fullscreen-variants.mjs';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const AGENT = join(ROOT, 'tests', 'zoo', 'agents', 'fullscreen-agent.mjs');
/** At rest after the input box is first drawn, before the first prompt: the recording opens IDLE for a while. */
const IDLE_BEFORE_S = 2.5;
/** At rest after a turn ends before the next prompt: long enough for a detector to settle on DONE/FAILED. */
const REST_BETWEEN_S = 4;
/** At rest after the last turn before the cast ends. */
const TAIL_S = 6;
/** Pause between the prompt's last character and Enter, as a person re-reads what they typed. */
const BEFORE_ENTER_MS = 350;
/** Gap between the keys of a multi-key answer (Down, Enter). */
const ANSWER_KEY_GAP_MS = 250;
/** How long the driver waits for one awaited event before it gives the variant up. */
const EVENT_DEADLINE_MS = 90_000;
const POLL_MS = 10;

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const blessedVersion = JSON.parse(readFileSync(join(ROOT, 'node_modules', 'blessed', 'package.json'), 'utf8')).version;

async function recordOne(v, out, seed) {
  const cols = v.cols ?? 120;
  const rows = v.rows ?? 36;
  const scratch = mkdtempSync(join(tmpdir(), 'zoo-rec-'));
  const tl = join(scratch, 'timeline.jsonl');
  const rand = prng(seed);
  const env = { PATH: process.env.PATH, HOME: scratch, LANG: 'C.UTF-8', TERM: 'xterm-256color', ZOO_OPTIONS: JSON.stringify(v.options), ZOO_TIMELINE: tl };
  const cast = [];
  const t0 = Date.now(); // the timeline's clock (Date.now) is the cast's: both relative to the spawn
  const now = () => (Date.now() - t0) / 1000;
  const p = pty.spawn(process.execPath, [AGENT], { cols, rows, cwd: scratch, env });
  let capturing = true;
  let exited = false;
  p.onData((d) => capturing && cast.push([now(), 'o', d]));
  p.onExit(() => (exited = true));
  const send = (bytes) => {
    cast.push([now(), 'i', bytes]);
    p.write(bytes);
  };
  const events = () => (existsSync(tl) ? readFileSync(tl, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l)) : []);
  const count = (kinds) => events().filter((e) => kinds.includes(e.kind)).length;
  const waitCount = async (kinds, n) => {
    const deadline = Date.now() + EVENT_DEADLINE_MS;
    while (count(kinds) < n) {
      if (exited || Date.now() > deadline) throw new Error(`gave up waiting for ${kinds.join('/')} #${n}; timeline: ${events().map((e) => e.kind).join(' ')}`);
      await sleep(POLL_MS);
    }
  };
  try {
    await waitCount(['ready'], 1);
    await sleep(IDLE_BEFORE_S * 1000);
    let asked = 0;
    for (const [i, step] of v.plan.entries()) {
      for (const ch of step.prompt) {
        send(ch);
        await sleep(keyGapMs(rand));
      }
      await sleep(BEFORE_ENTER_MS);
      send('\r');
      await waitCount(['prompt_submitted'], i + 1);
      if (step.answer) {
        await waitCount(['approval_requested'], ++asked);
        await sleep((step.think_s ?? 3) * 1000);
        for (const k of step.answer) {
          send(keyBytes(k));
          await sleep(ANSWER_KEY_GAP_MS);
        }
      }
      if (step.interrupt) {
        await sleep(step.interrupt.after_s * 1000);
        send(keyBytes(step.interrupt.key));
      }
      await waitCount(['turn_complete', 'turn_failed'], i + 1);
      await sleep((i === v.plan.length - 1 ? TAIL_S : REST_BETWEEN_S) * 1000);
    }
    const duration = round(now());
    capturing = false;
    send('\x04');
    for (let i = 0; i < 100 && !exited; i++) await sleep(20);
    const truthEvents = events().map((e) => ({ ...e, t: round((e.t - t0) / 1000) }));
    mkdirSync(out, { recursive: true });
    const header = { version: 2, width: cols, height: rows, timestamp: Math.floor(t0 / 1000), duration, env: { TERM: 'xterm-256color' } };
    const text = [JSON.stringify(header), ...cast.filter(([t]) => t <= duration).map(([t, k, d]) => JSON.stringify([Number(t.toFixed(6)), k, d]))].join('\n') + '\n';
    writeFileSync(join(out, 'session.cast'), text);
    const truth = {
      source: `zoo fullscreen-agent (blessed ${blessedVersion})`,
      scenario: v.about,
      cols,
      rows,
      duration,
      events: truthEvents,
      segments: segments(truthEvents, duration),
      options: v.options,
      notes: 'events from the agent\'s own timeline (ZOO_TIMELINE, Date.now at the moment it acted), relative to the spawn',
    };
    writeFileSync(join(out, 'truth.json'), JSON.stringify(truth, null, 1) + '\n');
    return truth;
  } finally {
    if (!exited) p.kill();
    rmSync(scratch, { recursive: true, force: true });
  }
}

const args = process.argv.slice(2);
const opt = (k, d) => (args.includes(k) ? args[args.indexOf(k) + 1] : d);
const outDir = resolve(opt('--out', join(ROOT, 'tests', 'fixtures', 'zoo')));
const only = opt('--only', '') ? opt('--only').split(',').map(Number) : null;
for (const [i, v] of VARIANTS.entries()) {
  const n = i + 1;
  if (only && !only.includes(n)) continue;
  const name = `fullscreen-${String(n).padStart(3, '0')}`;
  const truth = await recordOne(v, join(outDir, name), 0x5eed + n);
  console.log(`${name}: ${truth.duration} s, ${truth.segments.map((s) => `${s.state}@${s.start}`).join(' ')}`);
}
