// Bounds what one unterminated OSC or DCS string can hold. xterm's handlers buffer a payload until its terminator,
// up to 10 M characters, as a string built from one piece per parsed chunk: a 10 MB `ESC]133;…` never closed held
// 320 MB (five in a row, 950 MB). No payload we or xterm read needs more than MAX_SEQUENCE_PAYLOAD; past it the
// sequence is dropped as xterm drops one past its own limit. Strings nobody handles (APC, PM, SOS, an OSC number
// or DCS nobody registered) are not buffered at all.
import type { BufferingHandler } from './xterm-internals.js';

/** Characters one OSC/DCS payload may hold: a command line in OSC 633;E, a hyperlink, a title (cut to 512 after)
 * all fit with room; inline images (OSC 1337 File=, sixel) are not read here. */
export const MAX_SEQUENCE_PAYLOAD = 64 << 10;

/** Caps every buffering OSC/DCS handler registered so far (xterm-internals.ts payloadHandlers: the OSC and DCS
 * handler tables); call after the last registration. Returns false when the tables are not reachable (the
 * payloads then keep xterm's own 10 M limit). */
export function capPayloads(tables: Array<Record<number, BufferingHandler[]>> | null, max = MAX_SEQUENCE_PAYLOAD): boolean {
  if (!tables) return false;
  for (const table of tables) {
    for (const handlers of Object.values(table)) for (const h of handlers) capHandler(h, max);
  }
  return true;
}

function capHandler(h: BufferingHandler, max: number): void {
  if (typeof h._data !== 'string' || typeof h._hitLimit !== 'boolean') return; // not one that buffers
  const put = h.put;
  h.put = function (data, start, end) {
    put.call(this, data, start, end);
    if (this._data!.length > max) {
      this._data = '';
      this._hitLimit = true; // as at xterm's own limit: the handler is not called for this sequence
    }
  };
}
