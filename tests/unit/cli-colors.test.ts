// The CLI's state colours are the dashboard's (web/style.css), as truecolor or the nearest xterm-256 colour, and
// none when the output is not a terminal or NO_COLOR is set. Also: which tmux versions the watcher accepts.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { colorMode, PALETTE, painter, xterm256 } from '../../src/cli/colors.js';
import { tmuxVersionSupported } from '../../src/attach/tmux/tmux-version.js';
import { ROOT } from '../e2e/harness.js';

describe('CLI colours', () => {
  it('match the dashboard palette in web/style.css', () => {
    const css = readFileSync(join(ROOT, 'web', 'style.css'), 'utf8');
    for (const [name, hex] of Object.entries(PALETTE)) expect(css, `--${name}`).toContain(`--${name}: ${hex};`);
  });

  it('maps to the nearest xterm-256 colour: cube colours and greys', () => {
    expect(xterm256(0, 0, 0)).toBe(16);
    expect(xterm256(255, 255, 255)).toBe(231);
    expect(xterm256(0x3f, 0xb9, 0x50)).toBe(71); // dashboard DONE green → (1,3,1) in the cube
    expect(xterm256(0x8b, 0x94, 0x9e)).toBe(246); // dim grey → the grey ramp
  });

  it('is off without a terminal, with NO_COLOR or --no-color; truecolor only when COLORTERM says so', () => {
    expect(colorMode({ isTTY: false }, false, {})).toBe('none');
    expect(colorMode({ isTTY: true }, false, { NO_COLOR: '1' })).toBe('none');
    expect(colorMode({ isTTY: true }, true, {})).toBe('none');
    expect(colorMode({ isTTY: true }, false, {})).toBe('256');
    expect(colorMode({ isTTY: true }, false, { COLORTERM: 'truecolor' })).toBe('truecolor');
    expect(colorMode({ isTTY: false }, false, { FORCE_COLOR: '1' })).toBe('256');
    expect(painter('none')('done', 'x', true)).toBe('x');
    expect(painter('truecolor')('failed', 'x')).toBe('\x1b[38;2;248;81;73mx\x1b[0m');
  });
});

describe('tmux version', () => {
  it('needs 3.2 or newer; unversioned builds pass', () => {
    for (const ok of ['tmux 3.2', 'tmux 3.3a', 'tmux 3.10', 'tmux 4.0', 'tmux next-3.5', 'tmux master']) expect(tmuxVersionSupported(ok), ok).toBe(true);
    for (const old of ['tmux 3.1c', 'tmux 2.9', 'tmux 1.8']) expect(tmuxVersionSupported(old), old).toBe(false);
  });
});
