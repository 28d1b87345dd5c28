// A terminal left raw (or on the alternate screen) after a crash is unusable, so whatever puts it back runs on
// whichever comes first: a call, normal exit, or an uncaught error.

/** `undo` wrapped to run once, from a call or from process exit ('exit' does not run on an uncaught error; the
 * monitor hook does, before node prints the error). */
export function restoreOnExit(undo: () => void): () => void {
  let restored = false;
  const restore = (): void => {
    if (restored) return;
    restored = true;
    process.off('exit', restore);
    process.off('uncaughtExceptionMonitor', restore);
    undo();
  };
  process.on('exit', restore);
  process.on('uncaughtExceptionMonitor', restore);
  return restore;
}
