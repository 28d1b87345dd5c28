// One recording session of a real CLI in a real PTY: the bytes it writes and the keys the driver types go to an
// asciicast v2 file on the recorder's clock; a headless terminal follows the screen so the driver can wait for the
// CLI to be ready before it types (when to type, never what is true: truth comes from the clocks).
// Used by scripts/record/claude/record.mjs; not needed by the tests, which replay the committed recordings.
import { spawn } from 'node-pty';
import xterm from '@xterm/headless';

const { Terminal } = xterm;

export class Session {
  constructor({ file, args, env, cwd, cols = 120, rows = 40, log }) {
    this.start = performance.now();
    this.startEpochMs = Date.now() - (performance.now() - this.start);
    this.cols = cols;
    this.rows = rows;
    this.events = [];
    this.log = log ?? (() => {});
    this.term = new Terminal({ cols, rows, allowProposedApi: true, scrollback: 1000 });
    this.exited = null;
    this.pty = spawn(file, args, { name: 'xterm-256color', cols, rows, cwd, env });
    this.pty.onData((d) => {
      this.events.push([this.clock(), 'o', d]);
      this.term.write(d);
    });
    this.exitPromise = new Promise((resolve) =>
      this.pty.onExit((e) => {
        this.exited = { t: this.clock(), ...e };
        this.log(`pty exit ${JSON.stringify(this.exited)}`);
        resolve(this.exited);
      }),
    );
  }

  /** Seconds since the PTY was spawned: the clock of the cast, of the truth and of the backend. */
  clock() {
    return (performance.now() - this.start) / 1000;
  }

  /** The wall-clock time (ms since the epoch) of clock() = 0: hook calls are stamped by `date`. */
  epochMsAt0() {
    return this.startEpochMs;
  }

  /** The screen as text, one string per row (the terminal's parser runs asynchronously: flush first). */
  async screen() {
    await new Promise((r) => this.term.write('', r));
    const buf = this.term.buffer.active;
    const out = [];
    for (let y = 0; y < this.rows; y++) out.push(buf.getLine(buf.viewportY + y)?.translateToString(true) ?? '');
    return out;
  }

  async waitFor(re, { timeoutS = 30, what = String(re) } = {}) {
    const deadline = this.clock() + timeoutS;
    for (;;) {
      const rows = await this.screen();
      if (rows.some((r) => re.test(r))) return this.clock();
      if (this.clock() > deadline || this.exited) throw new Error(`timed out waiting for ${what}\n${rows.join('\n')}`);
      await sleep(50);
    }
  }

  /** Types `data` as one write (a key, or a whole paste) and returns the driver's time of it. */
  press(data) {
    const t = this.clock();
    this.events.push([t, 'i', data]);
    this.pty.write(data);
    this.log(`driver ${t.toFixed(3)} key ${JSON.stringify(data)}`);
    return t;
  }

  /** Types text a key at a time, as a person does. */
  async type(text, gapMs = 40) {
    for (const ch of text) {
      this.press(ch);
      await sleep(gapMs);
    }
  }

  async dump(label) {
    const rows = await this.screen();
    this.log(`--- screen ${label} @${this.clock().toFixed(3)}\n${rows.map((r) => `|${r}`).join('\n')}`);
  }

  kill() {
    if (!this.exited) this.pty.kill();
  }
}

export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
