// Password prompts: a Python script's getpass (`password: `) and bash's own `read -s -p "password: "`.
const SCRIPT = `#!/usr/bin/env python3
import getpass, time
print("Connecting to vault at 127.0.0.1:8200", flush=True)
time.sleep(0.4)
pw = getpass.getpass("password: ")
print("authenticated (%d characters)" % len(pw))
`;
export default {
  name: 'shell-ask-password',
  scenario: 'bash without shell integration: `./vault-login` (python getpass `password: `) answered after 3 s; then `read -s -p "password: " pw` answered after 3 s',
  setup: async ({ dir }) => {
    const { writeFileSync, chmodSync } = await import('node:fs');
    writeFileSync(`${dir}/vault-login`, SCRIPT);
    chmodSync(`${dir}/vault-login`, 0o755);
  },
  steps: [
    { wait: 2 },
    { type: './vault-login', enter: true },
    { wait: 'blocked', means: 'question' },
    { wait: 3 },
    { answer: 's3cret' },
    { wait: 'command_end' },
    { wait: 3 },
    { type: 'read -s -p "password: " pw', enter: true },
    { wait: 'blocked', means: 'question' },
    { wait: 3 },
    { answer: 'hunter2' },
    { wait: 'command_end' },
  ],
  tail: 3,
};
