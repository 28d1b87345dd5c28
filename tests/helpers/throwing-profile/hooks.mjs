// A module-loading hook (node:module register) for the analysis-fault tests, two faults on request:
// - $TERMSUPERVISOR_TEST_THROW_ON: the built profile table (dist/analysis/profiles/index.js) is wrapped so that
//   classifyWith throws the TypeError the Gemini profile once threw whenever a screen row holds that word. Function
//   declarations are mutable bindings inside their module, so reassigning classifyWith there reaches every importer
//   (ESM live bindings): the daemon and `run` call the thrower exactly where they call the real profile.
// - $TERMSUPERVISOR_TEST_WORKER_DIES: `run`'s monitor thread (dist/cli/monitor-worker.js) throws, outside any
//   handler, right after the first message it gets: the thread dies as a bug there would end it.
const PROFILES = /\/dist\/analysis\/profiles\/index\.js$/;
const WORKER = /\/dist\/cli\/monitor-worker\.js$/;

const THROWER = `
;{
  const real = classifyWith;
  const word = process.env.TERMSUPERVISOR_TEST_THROW_ON;
  classifyWith = function (program, snap, ctx) {
    if (word && snap.lines.some((l) => l.includes(word))) return undefined.trim();
    return real(program, snap, ctx);
  };
}
`;

const DIES = `
;if (process.env.TERMSUPERVISOR_TEST_WORKER_DIES) parentPort.once('message', () => setImmediate(() => {
  throw new Error('injected: the pane monitor thread dies');
}));
`;

export async function load(url, context, nextLoad) {
  const r = await nextLoad(url, context);
  const extra = PROFILES.test(url) ? THROWER : WORKER.test(url) ? DIES : null;
  if (extra === null) return r;
  const source = typeof r.source === 'string' ? r.source : Buffer.from(r.source).toString('utf8');
  return { ...r, source: source + extra };
}
