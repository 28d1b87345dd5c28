// A man page is read in a pager: at rest while the person reads, whatever the page's bottom line says.
export default {
  name: 'shell-fullscreen-man',
  scenario: 'bash without shell integration: `man ls`, read for a while, paged, quit with q',
  cols: 100,
  rows: 30,
  env: { MANPAGER: 'less', PAGER: 'less' },
  steps: [
    { wait: 2 },
    { type: 'man ls', enter: true },
    { wait: 'blocked', means: 'idle', note: 'the pager waits on keys', timeout: 20 },
    { wait: 8 },
    { press: ['Space', 'Space'] },
    { wait: 'blocked', means: 'idle' },
    { wait: 4 },
    { press: 'q' },
    { wait: 'command_end' },
  ],
  tail: 3,
};
