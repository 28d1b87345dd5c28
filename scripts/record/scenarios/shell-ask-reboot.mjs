// A script's question that ends in a parenthetical: `Reboot now? [Y/n] (default Y in 8 s) ` (read -t 8).
const SCRIPT = `#!/bin/bash
echo "Applying updates..."
sleep 0.6
echo "3 packages upgraded, 0 newly installed"
read -t 8 -p "Reboot now? [Y/n] (default Y in 8 s) " ans
case "\${ans:-Y}" in [Yy]*) echo "rebooting (not really)";; *) echo "Reboot postponed.";; esac
`;
export default {
  name: 'shell-ask-reboot',
  scenario: 'bash without shell integration: `./update.sh` prints two lines, asks `Reboot now? [Y/n] (default Y in 8 s) ` (read -t 8), answered n after 3 s',
  setup: async ({ dir }) => {
    const { writeFileSync, chmodSync } = await import('node:fs');
    writeFileSync(`${dir}/update.sh`, SCRIPT);
    chmodSync(`${dir}/update.sh`, 0o755);
  },
  steps: [
    { wait: 2 },
    { type: './update.sh', enter: true },
    { wait: 'blocked', means: 'question' },
    { wait: 3 },
    { answer: 'n' },
    { wait: 'command_end' },
  ],
  tail: 4,
};
