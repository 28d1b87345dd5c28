#!/usr/bin/env node
// A stand-in for a Node coding agent (Gemini CLI's shape, none of its words): an input box between ▄ and ▀ rules
// with the cursor on its "> " row; a submitted line is worked on for WORK_S behind a spinner row
// "(esc to cancel, Ns)", answered, and the box drawn again. Node waits for the line in its event loop (epoll), as
// the real agents do: the kernel shows no terminal read, only the program's name, script and package tell what it
// is. Tests lay it out as the entry point of a package (tests/helpers/fake-package.ts). CommonJS, no dependencies.
'use strict';
/** How long each answer takes: long enough to be read as work. */
const WORK_S = 2;
/** Spinner redraw period. */
const FRAME_MS = 100;
const RULE = 60;
const SPIN = '⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏';

function out(s) {
  process.stdout.write(s);
}

function box() {
  // The box, then the cursor back on its input row, after "> ".
  out(`${'▄'.repeat(RULE)}\r\n > \r\n${'▀'.repeat(RULE)}\r\n  ~/work   fake-model\x1b[2A\r\x1b[3C`);
}

function answer(line) {
  if (line === '/quit') process.exit(Number(process.env.FAKE_AGENT_EXIT ?? 0));
  out('\x1b[2B\r\n');
  const start = Date.now();
  let frame = 0;
  const timer = setInterval(() => {
    const s = Math.floor((Date.now() - start) / 1000);
    if (Date.now() - start >= WORK_S * 1000) {
      clearInterval(timer);
      out(`\r\x1b[K✦ answer: ${line}\r\n\r\n`);
      box();
      return;
    }
    out(`\r\x1b[K${SPIN[frame++ % SPIN.length]} Thinking about it (esc to cancel, ${s}s)`);
  }, FRAME_MS);
}

out('fake agent 0.1\r\n\r\n');
box();
let pending = '';
process.stdin.setEncoding('utf8');
process.stdin.on('data', (d) => {
  pending += d;
  let nl;
  while ((nl = pending.indexOf('\n')) >= 0) {
    const line = pending.slice(0, nl).replace(/\r$/, '');
    pending = pending.slice(nl + 1);
    answer(line);
  }
});
process.stdin.on('end', () => process.exit(0));
