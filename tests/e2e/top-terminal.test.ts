// `top` holds the terminal (raw mode, alternate screen, no cursor) and must give it back however it ends. Here
// the built module holds a real PTY and then dies of an uncaught exception: the terminal gets the leave sequence
// before node prints the error, and the shell's `stty` afterwards finds the line discipline cooked again (icanon,
// echo) — a terminal left raw would show -icanon -echo. And top takes no screen it cannot use: a piped output is
// refused, and a missing daemon is said on the normal screen.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { assertBuilt, BIN, ROOT, testEnv } from './harness.js';
import { HeldPty } from './held-pty.js';
import { runCli } from './daemon-harness.js';

assertBuilt();

describe('top gives the terminal back', () => {
  it('on an uncaught exception: alternate screen left, cursor shown, raw mode off, the error on the normal screen', async () => {
    const mod = join(ROOT, 'dist', 'cli', 'top', 'terminal.js');
    const script = `import(${JSON.stringify(mod)}).then((m) => { m.holdTerminal(process.stdin, process.stdout); process.stdout.write('HELD'); setTimeout(() => { throw new Error('boom in top'); }, 100); })`;
    // bash runs the script, then reports the terminal's modes (the script's text has no $ or backquote to expand)
    const term = new HeldPty('bash', ['--norc', '--noprofile', '-c', `node -e ${JSON.stringify(script)}; echo "exit:$?"; stty -a`], { cols: 80, rows: 24, cwd: ROOT, env: { ...process.env, TERM: 'xterm-256color' } as Record<string, string> });
    const out = (await term.ended()).out.toString('utf8');
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

  it('refuses a non-terminal output, and says "no daemon" on the normal screen without taking it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ts-top-'));
    try {
      const env = testEnv(dir);
      const piped = await runCli([process.execPath, BIN, 'top'], env);
      expect(piped.code).toBe(2);
      expect(piped.stderr).toMatch(/^termsupervisor: top needs a terminal: its output is not one/);
      // in a terminal, with no daemon running: exit 1, the reason, and the screen never switched
      const end = await new HeldPty(process.execPath, [BIN, 'top'], { cols: 80, rows: 24, cwd: ROOT, env }).ended();
      const out = end.out.toString('utf8');
      const exit = end.code;
      expect(exit).toBe(1);
      expect(out).toMatch(/no running daemon found/);
      expect(out).not.toContain('\x1b[?1049h');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
