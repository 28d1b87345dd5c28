// The terminal of a `termsupervisor run` pane: a bell (most terminals flash or beep, tmux marks the window) and an
// OSC 9 desktop notification, which iTerm2, WezTerm, kitty, Windows Terminal and others turn into a system banner.
// The daemon routes the bytes to the `run` wrapper of that pane, which writes them to its own terminal.
import { cut } from '../daemon/redact.js';
import type { Notification, NotifyChannel } from './types.js';

const BEL = '\x07';
/** OSC 9 text longer than this is cut: terminals cap it anyway, and one line of banner is the point. */
const OSC_TEXT_MAX = 200;

export type PaneWrite = (paneId: string, bytes: string) => void | Promise<void>;

export function bellChannel(write: PaneWrite): NotifyChannel {
  return {
    name: 'bell',
    send: async (n) => {
      await write(n.paneId, bellBytes(n));
    },
  };
}

/** BEL, then OSC 9 ; text BEL. Notification text carries no control characters (see text.ts); checked again here. */
export function bellBytes(n: Notification): string {
  let text = `${n.title}${n.body ? `: ${n.body}` : ''}`.replace(/[\u0000-\u001f\u007f-\u009f]/g, ' ');
  // "OSC 9 ; 4 ; …" is ConEmu's progress report, not a message: never start the text with digits and ";".
  if (/^\d+;/.test(text)) text = ` ${text}`;
  return `${BEL}\x1b]9;${cut(text, OSC_TEXT_MAX)}${BEL}`;
}
