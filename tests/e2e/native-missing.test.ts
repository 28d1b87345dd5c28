// An installed package whose native module was never compiled (npm skipped node-pty's install script): the BUILT
// command says what is wrong and how to fix it (exit 2) instead of dying with a stack trace, even for --version.
// The package is a real copy of bin/ and dist/ beside the project's node_modules, with a node-pty that has its
// JavaScript but no compiled pty.node.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { assertBuilt, ROOT } from './harness.js';

const run = promisify(execFile);
let dir = '';

/** A package tree at `pkg`: node-pty either linked as installed here, or copied without its compiled module. */
function makePackage(pkg: string, ptyBuilt: boolean): void {
  mkdirSync(join(pkg, 'node_modules'), { recursive: true });
  for (const part of ['bin', 'dist', 'config', 'package.json']) cpSync(join(ROOT, part), join(pkg, part), { recursive: true });
  const modules = join(ROOT, 'node_modules');
  for (const name of readdirSync(modules)) {
    if (name === 'node-pty' && !ptyBuilt) {
      for (const part of ['package.json', 'lib']) cpSync(join(modules, name, part), join(pkg, 'node_modules', name, part), { recursive: true });
    } else {
      symlinkSync(join(modules, name), join(pkg, 'node_modules', name));
    }
  }
}

async function cli(pkg: string, ...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return run(process.execPath, [join(pkg, 'bin', 'termsupervisor'), ...args], { cwd: '/' }).then(
    (r) => ({ code: 0, ...r }),
    (e: { code: number; stdout: string; stderr: string }) => ({ code: e.code, stdout: e.stdout, stderr: e.stderr }),
  );
}

beforeAll(() => {
  assertBuilt();
  dir = mkdtempSync(join(tmpdir(), 'ts-native-'));
  makePackage(join(dir, 'good'), true);
  makePackage(join(dir, 'unbuilt'), false);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('a native module that was not compiled', () => {
  it('the same package with node-pty compiled works (the tree itself is sound)', async () => {
    const r = await cli(join(dir, 'good'), '--version');
    expect(r.code, r.stderr).toBe(0);
  });

  it('is explained, with the reinstall command, and exit 2', async () => {
    const r = await cli(join(dir, 'unbuilt'), '--version');
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('termsupervisor: a native module did not load: Failed to load native module: pty.node');
    expect(r.stderr).toContain('npm install -g --allow-scripts=better-sqlite3,node-pty');
    expect(r.stderr).not.toMatch(/\n\s+at /); // no stack trace
  });
});
