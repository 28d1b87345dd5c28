// A module-loading hook (node:module register) that wraps the built profile table (dist/analysis/profiles/index.js):
// classifyWith throws the TypeError the Gemini profile once threw whenever a screen row holds the word in
// $TERMSUPERVISOR_TEST_THROW_ON. Function declarations are mutable bindings inside their module, so reassigning
// classifyWith there reaches every importer (ESM live bindings): the daemon and `run` call the thrower exactly where
// they call the real profile.
const TARGET = /\/dist\/analysis\/profiles\/index\.js$/;

const WRAP = `
;{
  const real = classifyWith;
  const word = process.env.TERMSUPERVISOR_TEST_THROW_ON;
  classifyWith = function (program, snap, ctx) {
    if (word && snap.lines.some((l) => l.includes(word))) return undefined.trim();
    return real(program, snap, ctx);
  };
}
`;

export async function load(url, context, nextLoad) {
  const r = await nextLoad(url, context);
  if (!TARGET.test(url)) return r;
  const source = typeof r.source === 'string' ? r.source : Buffer.from(r.source).toString('utf8');
  return { ...r, source: source + WRAP };
}
