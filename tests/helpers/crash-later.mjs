// Preloaded into a real daemon (NODE_OPTIONS=--import=…) by a test: on SIGUSR2 it throws from a fresh tick, outside
// every handler, the way an uncaught bug would end the process.
process.on('SIGUSR2', () =>
  setImmediate(() => {
    throw new Error('injected crash for the test');
  }),
);
