// Keys as people read them and as a terminal receives them (src/daemon/typed-keys.ts): what the API shows before
// sending and history keeps must be what is typed.
import { describe, expect, it } from 'vitest';
import { keyBytes, printableKeys } from '../../src/daemon/typed-keys.js';

describe('typed keys', () => {
  it('named keys become their bytes, one entry per key; other tokens are typed as they are', () => {
    expect(keyBytes('2')).toEqual(['2']);
    expect(keyBytes('↓ ↓ Enter')).toEqual(['\x1b[B', '\x1b[B', '\r']);
    expect(keyBytes('y Enter')).toEqual(['y', '\r']);
    expect(keyBytes('→ Enter')).toEqual(['\x1b[C', '\r']);
    expect(keyBytes('Esc')).toEqual(['\x1b']);
    expect(keyBytes('Ctrl-C')).toEqual(['\x03']);
  });

  it('typed bytes read back as printable keys, text runs kept and control bytes never raw', () => {
    expect(printableKeys('fix the tests\r')).toBe('fix the tests Enter');
    expect(printableKeys('\x1b[A\x1b[A\r')).toBe('↑ ↑ Enter');
    expect(printableKeys('\x1b')).toBe('Esc');
    expect(printableKeys('y\x03\x07')).toBe('y Ctrl-C \\x07');
    for (const k of ['2', '↓ ↓ Enter', 'y Enter', 'Esc', 'Ctrl-C']) expect(printableKeys(keyBytes(k).join(''))).toBe(k);
  });
});
