// A reader that stops early (`termsupervisor status | head -1`, `logs | less` quit) closes the pipe our output
// goes to; the next write fails with EPIPE, which node raises as an unhandled 'error' (a stack trace). Nothing is
// left to do for a command whose output nobody reads: it exits quietly, with success, as `cat | head` does.
// Installed once for every command by main.ts, except the ones that live on without their stdout (`run`: the pane
// keeps going; `daemon`: a service whose stdout went away still supervises).

/** Errors that mean the reader went away. */
const GONE = new Set(['EPIPE', 'ERR_STREAM_DESTROYED', 'ECONNRESET']);

export function exitQuietlyWhenReaderGoes(stream: NodeJS.WriteStream = process.stdout, exit: (code: number) => void = (c) => process.exit(c)): void {
  stream.on('error', (e: NodeJS.ErrnoException) => {
    if (e.code && GONE.has(e.code)) return exit(0);
    throw e;
  });
}

/** stderr closing is no reason to stop a command (its answer is on stdout): such errors are ignored. */
export function ignoreClosedStderr(stream: NodeJS.WriteStream = process.stderr): void {
  stream.on('error', (e: NodeJS.ErrnoException) => {
    if (!e.code || !GONE.has(e.code)) throw e;
  });
}
