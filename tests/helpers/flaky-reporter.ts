// Names every test that passed only when run again (vitest's `retry`), at the end of the run: a flaky test is a
// race in the test or in the product, and must be seen even when the build passes.
import type { Reporter, TestCase } from 'vitest/node';

export default class FlakyReporter implements Reporter {
  private readonly flaky: string[] = [];

  onTestCaseResult(test: TestCase): void {
    const d = test.diagnostic();
    if (d?.flaky) this.flaky.push(`${test.module.moduleId.replace(process.cwd() + '/', '')} > ${test.fullName} (passed on retry ${d.retryCount})`);
  }

  onTestRunEnd(): void {
    if (!this.flaky.length) return;
    process.stdout.write(`\nFLAKY: ${this.flaky.length} test(s) failed, then passed when run again:\n${this.flaky.map((f) => `  ${f}`).join('\n')}\n`);
  }
}
