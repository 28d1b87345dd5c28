#!/usr/bin/env node
// `npm test`: every test file, in two vitest runs side by side. The notification tests wait on the wall clock for
// most of their time (quiet hours that end at a minute boundary, an acked question watched for 30 s, a webhook
// retried): a third of the suite's test time (about 345 s of 1180 s in CI), little of its CPU. Run by the main
// run's two workers they held a 2-core machine for 345/2 s doing nothing; here they take one worker of their own
// beside the others. They share no state with the rest (each test has its own daemon folders, tmux socket and
// ports; a build is serialised by tests/helpers/build.ts's lock). The side run's output is printed after the main
// run's, whole; the exit code is non-zero when either run fails.
// With arguments (`npm test -- tests/unit/x.test.ts`) it is plain `vitest run` with them.
import { spawn } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const vitest = join(root, 'node_modules', 'vitest', 'vitest.mjs');
/** The wall-clock tests: a glob for the main run's --exclude, and the same files as a path filter for their own. */
const WALL_CLOCK = 'tests/e2e/notify-*.test.ts';
const WALL_CLOCK_FILTER = 'tests/e2e/notify-';

const args = process.argv.slice(2);
const run = (argv, stdio) =>
  new Promise((resolve) => {
    const child = spawn(process.execPath, [vitest, 'run', ...argv], { cwd: root, stdio });
    child.on('exit', (code, signal) => resolve(code ?? (signal ? 1 : 0)));
    child.on('error', (e) => {
      process.stderr.write(`test: could not start vitest: ${e.message}\n`);
      resolve(1);
    });
  });

if (args.length) process.exit(await run(args, 'inherit'));

const dir = mkdtempSync(join(tmpdir(), 'ts-test-'));
const logFile = join(dir, 'wall-clock.log');
const log = openSync(logFile, 'w');
process.stdout.write(`test: the wall-clock tests (${WALL_CLOCK}) run beside the others, one worker; their output follows the main run's\n`);
const side = run([WALL_CLOCK_FILTER, '--maxWorkers=1'], ['ignore', log, log]);
const main = await run(['--exclude', WALL_CLOCK], 'inherit');
const sideCode = await side;
closeSync(log);
process.stdout.write(`\ntest: the wall-clock tests (${WALL_CLOCK}):\n`);
process.stdout.write(readFileSync(logFile, 'utf8'));
rmSync(dir, { recursive: true, force: true });
if (main !== 0 || sideCode !== 0) process.stderr.write(`test: FAILED (main run exit ${main}, wall-clock run exit ${sideCode})\n`);
process.exit(main !== 0 ? main : sideCode);
