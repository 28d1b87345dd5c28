// A deterministic, agent-style terminal session built in memory as cast events: shell prompts with OSC 133, then
// agent turns — a typed prompt, a spinner redrawn ~10×/s with a live "(12s · esc to interrupt)" timer and an
// animated title, streamed answer text, tool output blocks, approval menus, interrupts, done lines — and now and
// then a full-screen panel on the alternate screen. Virtual time advances as a real session's would.
import type { Cast } from '../attach/asciicast.js';
import { CastBuilder } from './cast-builder.js';
import { Prng } from './prng.js';
import {
  ALT_OFF, ALT_ON, AgentLayout, BRAILLE_FRAMES, CSI, PASTE_OFF, PASTE_ON, STAR_FRAMES, SYNC_OFF, SYNC_ON,
  at, fg256, notify, osc133, sgr, title,
} from './agent-screen.js';
import { answerBurst, pickCommand, pickPrompt, pickVerb, toolLine } from './agent-text.js';

export interface SyntheticSpec {
  seed: number;
  /** Stop once this many output bytes (UTF-8) have been produced. */
  minBytes: number;
  cols: number;
  rows: number;
}

/** Spinners redraw about ten times a second. */
const FRAME_MS = 100;
/** How often things happen: each is the probability per draw. */
const P = {
  /** An episode is plain shell work (OSC 133 prompts) rather than an agent session. */
  shellEpisode: 0.15,
  /** Before a turn the person opens a full-screen panel on the alternate screen. */
  altPanel: 0.05,
  /** After a step of a turn the agent asks for permission. */
  approval: 0.04,
  /** After a step the person presses Esc. */
  interrupt: 0.01,
  /** A turn's spinner is Codex-style braille rather than Claude's stars. */
  braille: 0.3,
  /** A step of a turn is the spinner alone ("thinking"); else streamed text or, past `think + stream`, a tool. */
  think: 0.3,
  stream: 0.4,
} as const;
/** Tool output sizes: most are small, some are pages, a few are whole build logs. */
const TOOL_SMALL = { p: 0.6, min: 512, max: 6 << 10 };
const TOOL_PAGE = { p: 0.75, min: 6 << 10, max: 48 << 10 }; // of the rest
const TOOL_LOG = { min: 48 << 10, max: 400 << 10 };
/** A pty read delivers at most this much at once. */
const MAX_CHUNK_BYTES = 16 << 10;
const SHELL_PROMPT = `${fg256(34, 'dev@box')}:${fg256(33, '~/project')}$ `;

export function syntheticSession(spec: SyntheticSpec): { cast: Cast; bytes: number } {
  const s = new SessionScript(spec);
  while (s.b.outputBytes < spec.minBytes) {
    if (s.r.chance(P.shellEpisode)) s.shellEpisode();
    else s.agentEpisode();
  }
  return { cast: s.b.toCast(), bytes: s.b.outputBytes };
}

class SessionScript {
  readonly b: CastBuilder;
  readonly r: Prng;
  private readonly ui: AgentLayout;
  /** While a turn runs: when the last spinner frame was drawn, and how it looks. */
  private spin: { lastFrame: number; startedAt: number; frame: number; braille: boolean; verb: string } | null = null;
  private convCol = 1;

  constructor(spec: SyntheticSpec) {
    this.b = new CastBuilder(spec.cols, spec.rows);
    this.r = new Prng(spec.seed);
    this.ui = new AgentLayout(spec.cols, spec.rows);
  }

  shellEpisode(): void {
    const { b, r } = this;
    for (let n = r.int(1, 3); n > 0; n--) {
      b.output(`${title('dev@box: ~/project')}${PASTE_ON}${osc133('A')}${SHELL_PROMPT}${osc133('B')}`, r.range(2, 40));
      b.wait(r.range(500, 4000));
      this.typeKeys(pickCommand(r), (ch) => ch);
      b.input('\r', r.range(60, 200));
      b.output(`${PASTE_OFF}\r\n${osc133('C')}`, r.range(1, 5));
      this.toolOutput((text) => text, '');
      b.output(`${osc133(`D;${r.chance(0.8) ? 0 : r.int(1, 2)}`)}`, r.range(1, 10));
    }
  }

  agentEpisode(): void {
    const { b, r, ui } = this;
    b.output(`${title('✳ Claude Code')}${PASTE_ON}${ui.open(`v2.${r.int(0, 9)}.${r.int(0, 99)}`)}`, r.range(100, 400));
    for (let n = r.int(1, 6); n > 0; n--) {
      if (r.chance(P.altPanel)) this.altScreenPanel();
      this.turn();
    }
    b.output(`${PASTE_OFF}${ui.close()}${title('dev@box: ~/project')}`, r.range(50, 300));
  }

  private turn(): void {
    const { b, r, ui } = this;
    b.wait(r.range(1000, 15000));
    let col = 0;
    const prompt = pickPrompt(r);
    this.typeKeys(prompt, (ch) => ui.typed(ch, ++col));
    b.input('\r', r.range(100, 600));
    b.output(`${ui.clearInput()}${ui.conv(`\r\n${fg256(246, '❯')} ${prompt}\r\n`)}`, r.range(5, 20));
    this.convCol = 1;
    this.spin = { lastFrame: b.now, startedAt: b.now, frame: 0, braille: r.chance(P.braille), verb: pickVerb(r) };
    let interrupted = false;
    for (let steps = r.int(2, 12); steps > 0 && !interrupted; steps--) {
      const k = r.next();
      if (k < P.think) this.advance(r.range(500, 8000)); // thinking: nothing but the spinner
      else if (k < P.think + P.stream) this.streamAnswer();
      else this.toolOutput((text) => ui.conv(text), `\r\n${fg256(114, '⏺')} ${sgr(1)}Bash${sgr(22)}(${pickCommand(r)})\r\n  ⎿  `);
      if (r.chance(P.approval)) this.approval();
      if (r.chance(P.interrupt)) {
        this.interrupt();
        interrupted = true;
      }
    }
    const worked = Math.round(b.now - this.spin.startedAt);
    this.spin = null;
    const done = interrupted ? `  ⎿  ${fg256(196, 'Interrupted')} · What should Claude do instead?` : `${fg256(174, '✻')} Worked for ${fmtDuration(worked)}`;
    b.output(`${SYNC_ON}${ui.clearStatus()}${ui.conv(`\r\n${done}\r\n`)}${title('✳ Claude Code')}${SYNC_OFF}`, r.range(20, 100));
    if (worked > 30 && r.chance(0.5)) b.output(notify('Claude is waiting for your input'), r.range(5, 50));
  }

  /** Keys typed one by one, each echoed a few ms later. */
  private typeKeys(text: string, echo: (ch: string) => string): void {
    for (const ch of text) {
      this.b.input(ch, this.r.range(35, 160));
      this.b.output(echo(ch), this.r.range(1, 12));
    }
  }

  /** Answer text arriving in bursts of a few words, wrapped at the screen edge. */
  private streamAnswer(): void {
    const { r, ui } = this;
    let text = '\r\n';
    let startCol = this.convCol;
    this.convCol = 1;
    for (let bursts = r.int(3, 60); bursts > 0; bursts--) {
      const burst = answerBurst(r);
      if (this.convCol + burst.width >= ui.cols - 2) {
        text += '\r\n';
        this.convCol = 1;
      }
      text += burst.text;
      this.convCol += burst.width;
      if (r.chance(0.5)) continue; // sometimes two bursts reach the pty together
      this.emit(ui.conv(text, startCol), r.range(10, 80));
      text = '';
      startCol = this.convCol;
    }
    if (text) this.emit(ui.conv(text, startCol), r.range(10, 80));
  }

  /** A tool's output: mostly small, sometimes a whole build log; read by the pty in chunks. */
  private toolOutput(wrap: (text: string) => string, header: string): void {
    const { r } = this;
    const band = r.chance(TOOL_SMALL.p) ? TOOL_SMALL : r.chance(TOOL_PAGE.p) ? TOOL_PAGE : TOOL_LOG;
    const size = r.int(band.min, band.max);
    let chunk = header;
    let chunkLimit = r.int(512, MAX_CHUNK_BYTES);
    for (let sent = 0; sent < size; ) {
      const line = toolLine(r) + '\r\n';
      chunk += line;
      sent += line.length;
      if (chunk.length >= chunkLimit) {
        this.emit(wrap(chunk), r.range(2, 30));
        chunk = '';
        chunkLimit = r.int(512, MAX_CHUNK_BYTES);
      }
    }
    if (chunk) this.emit(wrap(chunk), r.range(2, 30));
  }

  /** A permission menu replaces the input box until the person answers it. */
  private approval(): void {
    const { b, r, ui } = this;
    const w = ui.cols - 4;
    const row = (s: string) => `│ ${s.padEnd(w - 2)}│\r\n`;
    const menu =
      `\r\n╭${'─'.repeat(w - 1)}╮\r\n${row('Bash command')}${row(`  ${pickCommand(r)}`)}${row('')}${row('Do you want to proceed?')}` +
      `${row('❯ 1. Yes')}${row("  2. Yes, and don't ask again for this command")}${row('  3. No, and tell Claude what to do differently (esc)')}╰${'─'.repeat(w - 1)}╯`;
    this.emit(`${SYNC_ON}${ui.clearStatus()}${ui.hideBox()}${ui.conv(menu)}${ui.footer('Esc to cancel · Tab to amend')}${SYNC_OFF}`, r.range(10, 60));
    b.output(notify('Claude needs your permission to use Bash'), r.range(5, 30));
    b.input(r.chance(0.7) ? '1' : '\r', r.range(1000, 8000));
    if (this.spin) this.spin.lastFrame = b.now;
    b.output(`${ui.showBox()}${ui.footer('? for shortcuts')}${ui.conv('\r\n')}`, r.range(5, 30));
  }

  /** The person presses Esc: the turn ends with an "Interrupted" line. */
  private interrupt(): void {
    this.advance(this.r.range(100, 2000));
    this.b.input('\x1b', 0);
  }

  /** A full-screen panel (a diff viewer, /config) on the alternate screen, scrolled with j, closed with q. */
  private altScreenPanel(): void {
    const { b, r, ui } = this;
    let page = `${ALT_ON}${CSI}2J${CSI}H`;
    for (let y = 1; y <= ui.rows; y++) page += `${at(y)}${toolLine(r)}`;
    b.output(page, r.range(50, 200));
    for (let n = r.int(1, 20); n > 0; n--) {
      b.input('j', r.range(80, 600));
      b.output(`${CSI}1S${at(ui.rows)}${CSI}2K${toolLine(r)}`, r.range(2, 10));
    }
    b.input('q', r.range(300, 3000));
    b.output(ALT_OFF, r.range(2, 10));
  }

  /** Output after `ms`, with spinner frames (and title animation) drawn on the way while a turn runs. */
  private emit(data: string, ms: number): void {
    this.advance(ms);
    this.b.output(data, 0);
  }

  private advance(ms: number): void {
    const { b, spin } = this;
    const until = b.now + ms / 1000;
    if (spin) {
      while (spin.lastFrame + FRAME_MS / 1000 <= until) {
        spin.lastFrame += FRAME_MS / 1000 + this.r.range(-0.01, 0.01);
        spin.frame++;
        const frames = spin.braille ? BRAILLE_FRAMES : STAR_FRAMES;
        const glyph = frames[spin.frame % frames.length]!;
        const secs = Math.floor(spin.lastFrame - spin.startedAt);
        const frame = this.ui.spinner(glyph, spin.verb, secs, spin.frame * 7, spin.braille);
        b.output(`${frame}${title(`${BRAILLE_FRAMES[spin.frame % BRAILLE_FRAMES.length]} Claude Code`)}`, Math.max(0, (spin.lastFrame - b.now) * 1000));
      }
    }
    b.wait(Math.max(0, (until - b.now) * 1000));
  }
}

function fmtDuration(s: number): string {
  return s >= 60 ? `${Math.floor(s / 60)}m ${s % 60}s` : `${s}s`;
}
