// make: a rule that succeeds, then the default rule failing (`make: *** [Makefile:5: all] Error 2`).
export default {
  name: 'shell-fail-make',
  scenario: 'bash without shell integration: `make lint` (exit 0), then `make` whose recipe fails (make: *** ... Error 2)',
  setup: [`printf 'all:\\n\\t@echo "cc -c main.c"\\n\\t@sleep 1\\n\\t@echo "main.c:3:1: error: expected ; before }" >&2\\n\\t@exit 1\\n\\nlint:\\n\\t@echo "checking sources"\\n\\t@sleep 0.5\\n\\t@echo "0 problems"\\n' > Makefile`],
  steps: [
    { wait: 2 },
    { type: 'make lint', enter: true },
    { wait: 'command_end' },
    { wait: 3 },
    { type: 'make', enter: true },
    { wait: 'command_end' },
  ],
  tail: 4,
};
