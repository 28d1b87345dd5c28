// node's own test runner: a passing file, then the whole folder with one failing test (exit 1).
export default {
  name: 'shell-fail-node-test',
  scenario: 'bash without shell integration: `node --test test/math.test.mjs` (passes), then `node --test` with a failing test (exit 1)',
  setup: [
    'mkdir -p test',
    `printf "import test from 'node:test';\\nimport assert from 'node:assert';\\ntest('adds', () => assert.equal(1 + 1, 2));\\ntest('multiplies', () => assert.equal(2 * 3, 6));\\n" > test/math.test.mjs`,
    `printf "import test from 'node:test';\\nimport assert from 'node:assert';\\ntest('trims', () => assert.equal(' a '.trim(), 'a'));\\ntest('pads', () => assert.equal('7'.padStart(3, '0'), '07'));\\n" > test/str.test.mjs`,
  ],
  steps: [
    { wait: 2 },
    { type: 'node --test test/math.test.mjs', enter: true },
    { wait: 'command_end' },
    { wait: 3 },
    { type: 'node --test', enter: true },
    { wait: 'command_end' },
  ],
  tail: 4,
};
