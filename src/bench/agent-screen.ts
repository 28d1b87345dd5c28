// The escape-sequence vocabulary of an agent TUI (Claude Code / Codex style): a scrolling conversation region on
// top, a status row with a spinner, an input box and a footer at the bottom, all drawn with absolute cursor moves.
// Pure string builders; the session script decides what to draw when.

export const ESC = '\x1b';
export const CSI = `${ESC}[`;
const BEL = '\x07';

export const SYNC_ON = `${CSI}?2026h`;
export const SYNC_OFF = `${CSI}?2026l`;
export const ALT_ON = `${CSI}?1049h`;
export const ALT_OFF = `${CSI}?1049l`;
export const PASTE_ON = `${CSI}?2004h`;
export const PASTE_OFF = `${CSI}?2004l`;

/** Claude's star frames and the braille frames Codex and most CLIs spin. */
export const STAR_FRAMES = ['·', '✢', '✳', '✶', '✻', '✽'];
export const BRAILLE_FRAMES = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];

export const at = (row: number, col = 1): string => `${CSI}${row};${col}H`;
export const sgr = (...codes: number[]): string => `${CSI}${codes.join(';')}m`;
export const fg256 = (n: number, text: string): string => `${CSI}38;5;${n}m${text}${CSI}39m`;
export const title = (text: string): string => `${ESC}]0;${text}${BEL}`;
export const osc133 = (code: string): string => `${ESC}]133;${code}${BEL}`;
export const notify = (text: string): string => `${ESC}]9;${text}${BEL}`;
export const link = (url: string, text: string): string => `${ESC}]8;;${url}${BEL}${text}${ESC}]8;;${BEL}`;

/** Row layout, 1-based, for a screen of `rows` rows: the bottom five rows are the agent's chrome. */
export class AgentLayout {
  readonly convBottom: number;
  readonly statusRow: number;
  readonly boxTop: number;
  readonly inputRow: number;
  readonly boxBottom: number;
  readonly footerRow: number;

  constructor(readonly cols: number, readonly rows: number) {
    this.footerRow = rows;
    this.boxBottom = rows - 1;
    this.inputRow = rows - 2;
    this.boxTop = rows - 3;
    this.statusRow = rows - 4;
    this.convBottom = rows - 5;
  }

  /** Clear, confine scrolling to the conversation region, draw banner and empty input box. */
  open(version: string): string {
    return (
      `${CSI}2J${CSI}H${CSI}1;${this.convBottom}r${at(2)}${fg256(174, ' ▐▛███▜▌')}   ${sgr(1)}Claude Code${sgr(22)} ${fg256(246, version)}` +
      `${at(3)}${fg256(174, '▝▜█████▛▘')}  ${fg256(246, 'Opus · API Usage Billing')}${at(4)}${fg256(174, '  ▘▘ ▝▝')}    ${fg256(246, '~/work/project')}` +
      this.showBox() + this.footer('? for shortcuts') + at(this.inputRow, 3)
    );
  }

  close(): string {
    return `${CSI}r${CSI}2J${CSI}H`;
  }

  footer(text: string): string {
    return `${at(this.footerRow, 3)}${CSI}2K${fg256(246, text)}`;
  }

  /** Echo of one typed character at input column `col` (1-based text column after "❯ "). */
  typed(ch: string, col: number): string {
    return `${at(this.inputRow, col + 2)}${ch}${sgr(7)} ${sgr(27)}${at(this.inputRow, col + 3)}`;
  }

  /** Menus take the input box's place: blank its three rows (and redraw it with `showBox` afterwards). */
  hideBox(): string {
    return `${ESC}7${at(this.boxTop)}${CSI}2K${at(this.inputRow)}${CSI}2K${at(this.boxBottom)}${CSI}2K${ESC}8`;
  }

  showBox(): string {
    const rule = fg256(244, '─'.repeat(this.cols));
    return `${ESC}7${at(this.boxTop)}${rule}${at(this.inputRow)}❯ ${sgr(7)} ${sgr(27)}${at(this.boxBottom)}${rule}${ESC}8`;
  }

  clearInput(): string {
    return `${at(this.inputRow)}${CSI}2K❯ ${sgr(7)} ${sgr(27)}`;
  }

  /** Text written on the bottom row of the conversation region from column `col`; its CR LFs scroll the region. */
  conv(text: string, col = 1): string {
    return `${ESC}7${at(this.convBottom, col)}${text}${ESC}8`;
  }

  /** One spinner frame: glyph, verb, live timer and the interrupt hint. */
  spinner(glyph: string, verb: string, seconds: number, tokens: number, braille: boolean): string {
    const hint = braille
      ? `${glyph} ${sgr(1)}${verb}${sgr(22)} ${fg256(246, `(${seconds}s • esc to interrupt)`)}`
      : `${fg256(174, glyph)} ${verb}… ${fg256(246, `(${seconds}s · ↑ ${tokens} tokens · esc to interrupt)`)}`;
    return `${ESC}7${at(this.statusRow)}${CSI}2K${hint}${ESC}8`;
  }

  clearStatus(): string {
    return `${ESC}7${at(this.statusRow)}${CSI}2K${ESC}8`;
  }
}
