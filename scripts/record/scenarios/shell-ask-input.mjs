// A Python script's input(): `Project name: ` right after a line of output, answered after 3 s.
const SCRIPT = `#!/usr/bin/env python3
import os
print("Scaffolding a new project")
name = input("Project name: ")
os.makedirs(name, exist_ok=True)
print("Created %s/" % name)
`;
export default {
  name: 'shell-ask-input',
  scenario: "bash without shell integration: `python3 new_project.py` asks `Project name: ` (input()), answered `demo` after 3 s; `ls`",
  setup: async ({ dir }) => {
    const { writeFileSync } = await import('node:fs');
    writeFileSync(`${dir}/new_project.py`, SCRIPT);
  },
  steps: [
    { wait: 2 },
    { type: 'python3 new_project.py', enter: true },
    { wait: 'blocked', means: 'question' },
    { wait: 3 },
    { answer: 'demo' },
    { wait: 'command_end' },
    { wait: 2 },
    { type: 'ls', enter: true },
    { wait: 'command_end' },
  ],
  tail: 3,
};
