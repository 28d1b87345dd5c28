// REPL-style programs for tests of `run` and supervised tasks: each prints `> `, reads a line from the terminal,
// works for two seconds printing nothing, and answers `answer: <line>`; `quit` exits 3, end of input exits 0.
// No name, list or package says what they are: only that they wait on the terminal at a prompt.

/** A REPL-style agent in bash: prints `> `, reads a line, spins two seconds printing nothing, answers. */
export const BASH_REPL = `#!/bin/bash
while true; do
  printf '> '
  IFS= read -r line || exit 0
  [ "$line" = quit ] && exit 3
  end=$(( \${EPOCHREALTIME/./} + 2000000 )); while (( \${EPOCHREALTIME/./} < end )); do :; done
  echo "answer: $line"
done
`;
/** The same in Python. */
export const PYTHON_REPL = `import sys, time
while True:
    try:
        line = input('> ')
    except EOFError:
        sys.exit(0)
    if line == 'quit':
        sys.exit(3)
    end = time.monotonic() + 2
    while time.monotonic() < end:
        pass
    print('answer:', line)
`;
