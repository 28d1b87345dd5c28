// Run in a child process by store-crash.test.ts (bundled by store-bundle.ts): writes transitions in batches of
// `batch`, flushing each, and after every flush writes the total committed so far to stdout, forever, until killed.
import { writeSync } from 'node:fs';
import { HistoryStore } from '../../src/store/history-store.js';
import { transition } from './store-fixtures.js';

const [dbPath, batchArg] = process.argv.slice(2);
const batch = Number(batchArg);
// a flush window no timer reaches: only the explicit flushes below commit
const store = HistoryStore.open(dbPath!, { flushMs: 3_600_000, onError: (e) => writeSync(2, `${e.message}\n`) });
for (let committed = 0, i = 0; ; ) {
  for (let k = 0; k < batch; k++, i++) store.addTransition(transition({ at: i, line: `burst ${i} ${'x'.repeat(200)}` }));
  if (!store.flush()) continue;
  committed += batch;
  // writeSync: the count is out before the next batch starts, pipe or not
  writeSync(1, `${committed}\n`);
}
