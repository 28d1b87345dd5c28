// `shell-integration --install`: the snippet goes into a real rc file once, after a backup; a second install changes
// nothing; an older block is replaced in place; a broken block is left alone. Real files in a temp dir.
import { afterEach, describe, expect, it } from 'vitest';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defaultRcFile, installInRc } from '../../src/shell/rc-install.js';
import { BEGIN_MARK, END_MARK, snippet } from '../../src/shell/snippets.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});
function temp(): string {
  const d = mkdtempSync(join(tmpdir(), 'ts-rc-'));
  dirs.push(d);
  return d;
}
const backups = (dir: string) => readdirSync(dir).filter((f) => f.includes('.termsupervisor-backup-'));
const NOW = new Date('2026-01-02T03:04:05Z');

describe('shell-integration --install', () => {
  it('appends the block once after a backup; installing again changes nothing', () => {
    const dir = temp();
    const rc = join(dir, '.bashrc');
    const mine = 'alias ll="ls -l"\nexport EDITOR=vi'; // no final newline: the block must still start on its own line
    writeFileSync(rc, mine, { mode: 0o640 });
    expect(installInRc('bash', rc, NOW)).toMatchObject({ status: 'appended', backup: `${rc}.termsupervisor-backup-20260102T030405` });
    expect(readFileSync(rc, 'utf8')).toBe(`${mine}\n\n${snippet('bash')}`);
    expect(readFileSync(`${rc}.termsupervisor-backup-20260102T030405`, 'utf8')).toBe(mine);
    expect(statSync(rc).mode & 0o777).toBe(0o640);

    expect(installInRc('bash', rc, NOW)).toEqual({ file: rc, status: 'unchanged', backup: null });
    expect(readFileSync(rc, 'utf8').split(BEGIN_MARK)).toHaveLength(2);
    expect(backups(dir)).toHaveLength(1);
  });

  it('creates a missing rc file (and its directory) without a backup', () => {
    const dir = temp();
    const rc = join(dir, 'fish', 'config.fish');
    expect(installInRc('fish', rc, NOW)).toMatchObject({ status: 'appended', backup: null });
    expect(readFileSync(rc, 'utf8')).toBe(snippet('fish'));
    expect(backups(join(dir, 'fish'))).toEqual([]);
  });

  it('replaces an older block in place, keeping the lines around it', () => {
    const dir = temp();
    const rc = join(dir, '.zshrc');
    writeFileSync(rc, `before\n${BEGIN_MARK}\necho old version\n${END_MARK}\nafter\n`);
    expect(installInRc('zsh', rc, NOW)).toMatchObject({ status: 'replaced' });
    expect(readFileSync(rc, 'utf8')).toBe(`before\n${snippet('zsh')}after\n`);
    expect(backups(dir)).toHaveLength(1);
  });

  it('leaves a block without its end mark alone', () => {
    const dir = temp();
    const rc = join(dir, '.bashrc');
    writeFileSync(rc, `${BEGIN_MARK}\necho half\n`);
    expect(installInRc('bash', rc, NOW)).toMatchObject({ status: 'refused', reason: expect.stringContaining(END_MARK) });
    expect(readFileSync(rc, 'utf8')).toBe(`${BEGIN_MARK}\necho half\n`);
    expect(backups(dir)).toEqual([]);
  });

  it('finds each shell rc file the way the shell does', () => {
    expect(defaultRcFile('bash', { HOME: '/h' })).toBe('/h/.bashrc');
    expect(defaultRcFile('zsh', { HOME: '/h' })).toBe('/h/.zshrc');
    expect(defaultRcFile('zsh', { HOME: '/h', ZDOTDIR: '/z' })).toBe('/z/.zshrc');
    expect(defaultRcFile('fish', { HOME: '/h' })).toBe('/h/.config/fish/config.fish');
    expect(defaultRcFile('fish', { HOME: '/h', XDG_CONFIG_HOME: '/c' })).toBe('/c/fish/config.fish');
  });
});
