// A tiny test runner printing vitest's summary lines (` FAIL  …`, `Tests  2 failed | 3 passed (5)`): a passing run,
// then a failing one (exit 1).
const RUNNER = String.raw`#!/usr/bin/env python3
import sys, time
fail = '--all' in sys.argv
def out(s, pause=0.15):
    print(s, flush=True); time.sleep(pause)
out('\n RUN  v1.6.0 /work/app\n')
out(' \u2713 src/math.test.ts (3 tests) 4ms')
if not fail:
    out(' \u2713 src/str.test.ts (2 tests) 3ms')
    out('\n Test Files  2 passed (2)')
    out('      Tests  5 passed (5)')
    out('   Duration  412ms\n', 0)
    sys.exit(0)
out(' \u276f src/str.test.ts (2 tests | 2 failed) 6ms')
out('   \u00d7 trims both ends')
out('   \u00d7 pads on the left')
out('\n\u23af\u23af\u23af Failed Tests 2 \u23af\u23af\u23af\n')
out(" FAIL  src/str.test.ts > trims both ends")
out("AssertionError: expected ' a' to be 'a'")
out(" FAIL  src/str.test.ts > pads on the left")
out("AssertionError: expected '07' to be '007'")
out('\n Test Files  1 failed | 1 passed (2)')
out('      Tests  2 failed | 3 passed (5)')
out('   Duration  498ms\n', 0)
sys.exit(1)
`;
export default {
  name: 'shell-fail-vitest-style',
  scenario: 'bash without shell integration: a small runner printing vitest-style output: `./vt src/math.test.ts` passes (Tests  5 passed), `./vt --all` fails (FAIL lines, Tests  2 failed | 3 passed, exit 1)',
  setup: async ({ dir }) => {
    const { writeFileSync, chmodSync } = await import('node:fs');
    writeFileSync(`${dir}/vt`, RUNNER);
    chmodSync(`${dir}/vt`, 0o755);
  },
  steps: [
    { wait: 2 },
    { type: './vt src/math.test.ts', enter: true },
    { wait: 'command_end' },
    { wait: 3 },
    { type: './vt --all', enter: true },
    { wait: 'command_end' },
  ],
  tail: 4,
};
