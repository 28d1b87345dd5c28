// A supervised task on a REPL-style script no list knows (`run -- ./agent.sh`): the script waits on the terminal at
// its `> ` prompt, so each answer ends a turn and the task goes on to its goal instead of waiting for the program's
// exit. Real daemon, real PTY, the wrapper joined to the daemon.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { assertBuilt } from './harness.js';
import { startTask, taskReaches, taskScratch } from './task-harness.js';

/** A REPL-style script no list knows: `> `, a line read, two seconds of work printing nothing, then its count of
 * turns (an answer that does not repeat the prompt: the task reads the rows below the prompt's). */
const COUNTING_REPL = `#!/bin/bash
n=0
while true; do
  printf '> '
  IFS= read -r line || exit 0
  n=$((n+1))
  end=$(( \${EPOCHREALTIME/./} + 2000000 )); while (( \${EPOCHREALTIME/./} < end )); do :; done
  echo "turn $n over"
done
`;

assertBuilt();
const { daemon, pane, dirs } = taskScratch();

describe('supervised tasks on a REPL-style script', () => {
  it('FINISHED by --until after two turns: the prompt, then the follow-up, each answered at the script prompt', async () => {
    const d = dirs();
    const dm = await daemon(d);
    const script = join(d.dir, 'agent.sh');
    writeFileSync(script, COUNTING_REPL, { mode: 0o755 });
    const { w, pane: id } = await pane(dm, d, [script], { name: 'ag', agent: 'auto' });
    await w.waitOutput('the prompt', (o) => o.includes('> '));
    const t = await startTask(dm, { pane: id, prompt: 'step one', until: 'turn 2 over' });
    const done = await taskReaches(dm, t.id, ['FINISHED', 'FAILED', 'PAUSED', 'EXHAUSTED'], w);
    expect(done.task.status, JSON.stringify(done, null, 1) + w.diag()).toBe('FINISHED');
    expect(done.task.reasonCode).toBe('until_matched');
    expect(done.iterations.map((i) => [i.n, i.result, i.decision])).toEqual([
      [1, 'done', 'continue'],
      [2, 'done', 'until_matched'],
    ]);
    expect(w.output).toContain('turn 1 over');
  });
});
