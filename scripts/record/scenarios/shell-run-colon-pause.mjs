// Output that pauses after a colon without asking anything: `Downloading: ` then progress, `Checking database: `
// then `ok`, and a prompt-like line in a log. The program never waits on the person: RUNNING throughout.
const SCRIPT = `#!/bin/bash
printf 'Downloading: '
sleep 0.8
for p in 10 35 60 85 100; do printf '\\rDownloading: %3d%%' $p; sleep 0.2; done
echo
printf 'Checking database: '
sleep 0.9
echo ok
echo "2025-05-01 10:00:01 auth: Enter password:"
sleep 1.2
printf 'Migrating schema (3 steps):'
sleep 0.9
echo ' done'
echo "finished"
`;
export default {
  name: 'shell-run-colon-pause',
  scenario: "bash without shell integration: `./sync.sh` prints `Downloading: ` then pauses 0.8 s before progress, `Checking database: ` then 0.9 s before `ok`, a log line ending in `password:`, `Migrating schema (3 steps):` then 0.9 s: never a question",
  setup: async ({ dir }) => {
    const { writeFileSync, chmodSync } = await import('node:fs');
    writeFileSync(`${dir}/sync.sh`, SCRIPT);
    chmodSync(`${dir}/sync.sh`, 0o755);
  },
  steps: [
    { wait: 2 },
    { type: './sync.sh', enter: true },
    { wait: 'command_end' },
  ],
  tail: 3,
};
