// git add -p in a scratch repository: `(1/1) Stage this hunk [y,n,q,a,d,e,?]? `, printed within ms of Enter.
export default {
  name: 'shell-ask-git-add-p',
  scenario: 'bash without shell integration: `git add -p` in a scratch repo with one changed hunk; the question is answered y after 3 s; then `git status --short`',
  env: { GIT_CONFIG_NOSYSTEM: '1', GIT_PAGER: 'cat', PAGER: 'cat' },
  setup: [
    'git init -q -b main .',
    'git config user.email dev@example.com && git config user.name dev',
    `printf 'one\\ntwo\\nthree\\n' > list.txt && git add list.txt && git commit -qm init`,
    `printf 'one\\n2\\nthree\\n' > list.txt`,
  ],
  steps: [
    { wait: 2 },
    { type: 'git add -p', enter: true },
    { wait: 'blocked', means: 'question' },
    { wait: 3 },
    { answer: 'y' },
    { wait: 'command_end' },
    { wait: 2 },
    { type: 'git status --short', enter: true },
    { wait: 'command_end' },
  ],
  tail: 3,
};
