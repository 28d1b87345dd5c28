// Issue 26 item 18: what the README and docs tell a fresh clone to run must exist in a clone. The scorer and the
// corpus format ship with the fixtures; no doc points at a sibling checkout (../shared) or a build machine's
// absolute paths; the README's documentation list names each page once; `make run`'s hint names a command the
// person can type in a checkout.
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../e2e/harness.js';
import { commandName } from '../../src/cli/command-name.js';

const pages = ['README.md', ...readdirSync(join(ROOT, 'docs')).filter((f) => f.endsWith('.md')).map((f) => join('docs', f))];

describe('docs a clone can follow', () => {
  it('the scorer and the corpus format ship with the fixtures', () => {
    expect(existsSync(join(ROOT, 'tests', 'fixtures', 'score.mjs'))).toBe(true);
    expect(existsSync(join(ROOT, 'tests', 'fixtures', 'FORMAT.md'))).toBe(true);
    expect(readFileSync(join(ROOT, 'tests', 'fixtures', 'score.mjs'), 'utf8')).toContain('failed_as_done');
  });

  it('no page points at a sibling checkout or a build machine', () => {
    const bad: string[] = [];
    for (const p of pages) {
      readFileSync(join(ROOT, p), 'utf8')
        .split('\n')
        .forEach((line, i) => {
          if (/\.\.\/shared\/|\/work\/shared\//.test(line)) bad.push(`${p}:${i + 1}: ${line.trim()}`);
        });
    }
    expect(bad).toEqual([]);
  });

  it("the README's documentation list names each page once", () => {
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    const list = readme.slice(readme.indexOf('## Documentation')).split('\n## ')[0]!;
    const links = [...list.matchAll(/^- \[[^\]]+\]\(([^)#]+)/gm)].map((m) => m[1]);
    expect(links.length).toBeGreaterThan(3);
    expect(links.filter((l, i) => links.indexOf(l) !== i)).toEqual([]);
  });
});

describe('commandName', () => {
  it('says bin/termsupervisor in a checkout whose bin is not on PATH, termsupervisor when PATH finds ours', () => {
    const dir = mkdtempSync(join(tmpdir(), 'ts-cmdname-'));
    try {
      expect(commandName({ root: ROOT, path: '/usr/bin:/bin', cwd: ROOT })).toBe(join('bin', 'termsupervisor'));
      expect(commandName({ root: ROOT, path: '/usr/bin:/bin', cwd: dir })).toBe(join(ROOT, 'bin', 'termsupervisor'));
      // A global install: PATH's termsupervisor is a link to ours.
      mkdirSync(join(dir, 'gbin'));
      symlinkSync(join(ROOT, 'bin', 'termsupervisor'), join(dir, 'gbin', 'termsupervisor'));
      expect(commandName({ root: ROOT, path: `/usr/bin:${join(dir, 'gbin')}`, cwd: '/' })).toBe('termsupervisor');
      // Someone else's termsupervisor on PATH is not ours: typing it would start another version.
      mkdirSync(join(dir, 'other'));
      writeFileSync(join(dir, 'other', 'termsupervisor'), '#!/bin/sh\n');
      chmodSync(join(dir, 'other', 'termsupervisor'), 0o755);
      expect(commandName({ root: ROOT, path: join(dir, 'other'), cwd: ROOT })).toBe(join('bin', 'termsupervisor'));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
