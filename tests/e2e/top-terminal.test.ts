// `top` holds the terminal (raw mode, alternate screen, no cursor) and must give it back however it ends. Here
// the built module holds a real PTY and then dies of an uncaught exception: the terminal gets the leave sequence
// before node prints the error, and the shell's `stty` afterwards finds the line discipline cooked again (icanon,
// echo) — a terminal left raw would show -icanon -echo.
import pty from 'node-pty';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { assertBuilt, ROOT, waitFor } from './harness.js';

assertBuilt();

describe('top gives the terminal back', () => {
  it('on an uncaught exception: alternate screen left, cursor shown, raw mode off, the error on the normal screen', async () => {
    const mod = join(ROOT, 'dist', 'cli', 'top', 'terminal.js');
    const script = `import(${JSON.stringify(mod)}).then((m) => { m.holdTerminal(process.stdin, process.stdout); process.stdout.write('HELD'); setTimeout(() => { throw new Error('boom in top'); }, 100); })`;
    // bash runs the script, then reports the terminal's modes (the script's text has no $ or backquote to expand)
    const term = pty.spawn('bash', ['--norc', '--noprofile', '-c', `node -e ${JSON.stringify(script)}; echo "exit:$?"; stty -a`], { cols: 80, rows: 24, cwd: ROOT, env: { ...process.env, TERM: 'xterm-256color' } as Record<string, string> });
    let out = '';
    term.onData((d) => (out += d));
    let exited = false;
    term.onExit(() => (exited = true));
    await waitFor('the script to end', () => exited, () => out);
    const held = out.indexOf('HELD');
    const leave = out.indexOf('\x1b[?1049l');
    const error = out.indexOf('boom in top');
    expect(held, out).toBeGreaterThan(-1);
    expect(out.slice(0, held)).toContain('\x1b[?1049h');
    expect(leave).toBeGreaterThan(held);
    expect(out.slice(held, error)).toContain('\x1b[?25h');
    expect(error).toBeGreaterThan(leave);
    expect(out).toMatch(/exit:1\r?\n/);
    // after the crash the terminal is cooked again: canonical mode and echo
    const modes = out.slice(out.indexOf('exit:1')).split(/[\s;]+/);
    expect(modes).toContain('icanon');
    expect(modes).toContain('echo');
    expect(modes).not.toContain('-icanon');
    expect(modes).not.toContain('-echo');
  });
});
