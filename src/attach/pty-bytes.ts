// node-pty gives a pty's output as bytes only with `encoding: null`, and that option also leaves IUTF8 off the
// pty's termios (node-pty sets it only for 'utf8'): the kernel's line editing (cooked mode: `cat`, `read`) would then
// erase half a character on Backspace. So the pty is made with the default 'utf8' (IUTF8 on) and its read stream's
// decoder is taken off again: reads arrive as Buffers, exactly the bytes the program wrote.
import type { IPty } from 'node-pty';

interface DecodingState {
  decoder: unknown;
  encoding: string | null;
}

/** Turns `term`'s reads back into Buffers; false when this node-pty or Node does not allow it (reads stay strings,
 * decoded as UTF-8: the pass-through then writes their UTF-8 bytes, as before). */
export function rawPtyBytes(term: IPty): boolean {
  const socket = (term as unknown as { _socket?: { _readableState?: DecodingState; readableEncoding?: string | null } })._socket;
  const state = socket?._readableState;
  if (!socket || !state || !('decoder' in state)) return false;
  state.decoder = null;
  state.encoding = null;
  return socket.readableEncoding === null || socket.readableEncoding === undefined;
}
