// Raw mode for the wrapper's own terminal, with a guaranteed way back: a terminal left raw after a crash is unusable
// (no echo, no line editing), so restoring is hooked to normal exit and to uncaught errors as well.
import { spawnSync } from 'node:child_process';
import { fstatSync } from 'node:fs';
import type { ReadStream } from 'node:tty';
import { restoreOnExit } from './restore-on-exit.js';

/** fds of the wrapper's own stdin and stdout. */
const STDIN_FD = 0;
const STDOUT_FD = 1;

/** Put `stdin` in raw mode; returns the restore function (idempotent, safe to call from any exit path). */
export function enterRawMode(stdin: ReadStream): () => void {
  stdin.setRawMode(true);
  disableOutputProcessing();
  return restoreOnExit(() => {
    try {
      // libuv puts back the settings it saved before raw mode, output processing included.
      stdin.setRawMode(false);
    } catch {
      // the terminal is already gone (hangup): nothing left to restore
    }
  });
}

/**
 * node's raw mode keeps ONLCR, so a bare \n from a full-screen program (which turned output processing off on
 * its own pty) would become \r\n on ours and shift its drawing. Like script(1) and tmux, the outer terminal must
 * pass bytes untouched: `stty -opost`. Only when stdout is the terminal stdin is, because only then does
 * setRawMode(false) restore it; without stty we keep node's raw mode (the common \r\n output is unaffected).
 */
function disableOutputProcessing(): void {
  try {
    const inDev = fstatSync(STDIN_FD);
    const outDev = fstatSync(STDOUT_FD);
    if (!outDev.isCharacterDevice() || inDev.rdev !== outDev.rdev) return;
    spawnSync('stty', ['-opost'], { stdio: [STDIN_FD, 'ignore', 'ignore'] });
  } catch {
    // no stty here: keep node's raw mode
  }
}
