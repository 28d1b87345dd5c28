// What a process is, from the process itself: names from an executable's real path, an interpreter's script and the
// npm package above it (real files in a scratch dir), and `run`'s choice of session or one thing to do from them.
import { chmodSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/config.js';
import { executableName, identityNames, interpreterScript, programName, scriptName } from '../../src/analysis/program-identity.js';
import { programKind } from '../../src/analysis/program-kind.js';
import { namesOfCommand, packageOf } from '../../src/attach/process-identity.js';

const programs = loadConfig().programs;
const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});
function scratchDir(): string {
  const d = mkdtempSync(join(tmpdir(), 'ts-ident-'));
  dirs.push(d);
  return d;
}

/** `<dir>/node_modules/<name>/dist/index.js`, with the package.json (and a nameless marker one in dist/). */
function pkg(dir: string, name: string, bin: unknown): string {
  const root = join(dir, 'node_modules', name);
  mkdirSync(join(root, 'dist'), { recursive: true });
  writeFileSync(join(root, 'package.json'), JSON.stringify({ name, bin }));
  writeFileSync(join(root, 'dist', 'package.json'), JSON.stringify({ type: 'module' }));
  const entry = join(root, 'dist', 'index.js');
  writeFileSync(entry, '#!/usr/bin/env node\n');
  chmodSync(entry, 0o755);
  return entry;
}

describe('names', () => {
  it('a program name drops its path, a login dash, .exe and a trailing version', () => {
    expect(programName('/home/me/.local/bin/claude.exe')).toBe('claude');
    expect(programName('-bash')).toBe('bash');
    expect(programName('python3.12')).toBe('python');
    expect(programName('7z')).toBe('7z');
  });

  it('an executable named by its version alone is named by the folder above its versions', () => {
    expect(executableName('/home/me/.local/share/claude/versions/2.0.31')).toBe('claude');
    expect(executableName('/opt/tool/1.2.3/bin/tool')).toBe('tool');
    expect(executableName('/usr/bin/make')).toBe('make');
  });

  it("a script's name drops its extension", () => {
    expect(scriptName('/x/bundle/gemini.js')).toBe('gemini');
    expect(scriptName('/x/agent.py')).toBe('agent');
  });

  it('the script an interpreter runs, never inline code or an option value', () => {
    expect(interpreterScript(programs, ['node', '--enable-source-maps', '/x/gemini.js', 'chat'])).toBe('/x/gemini.js');
    expect(interpreterScript(programs, ['python3', '-W', 'ignore', 'agent.py'])).toBe('agent.py');
    expect(interpreterScript(programs, ['node', '-e', 'console.log(1)'])).toBeNull();
    expect(interpreterScript(programs, ['python3', '-m', 'pytest'])).toBeNull();
    expect(interpreterScript(programs, ['bash', '-lc', 'make'])).toBeNull();
    expect(interpreterScript(programs, ['make', 'all'])).toBeNull();
  });

  it('every name, most telling first, once each', () => {
    expect(identityNames({ comm: 'node', exe: '/usr/bin/node', argv: ['node', '/p/index.js'], script: '/p/index.js', pkg: { name: '@google/gemini-cli', bins: ['gemini'] } })).toEqual(['gemini', 'gemini-cli', '@google/gemini-cli', 'index', 'node']);
  });

  it('a script started through a link of another name goes by that name too (a `claude` link to an installed script)', () => {
    expect(identityNames({ comm: 'bash', exe: '/usr/bin/bash', argv: ['bash', '/home/a/.local/bin/claude'], script: '/opt/fake/fake-claude.sh', scriptGiven: '/home/a/.local/bin/claude' })).toEqual(['fake-claude', 'claude', 'bash']);
  });
});

describe('the package a script belongs to (real files)', () => {
  it('the nearest package.json with a name: its name and its bin commands (an object or a string)', () => {
    const dir = scratchDir();
    const gemini = pkg(dir, '@google/gemini-cli', { gemini: 'dist/index.js' });
    expect(packageOf(gemini)).toEqual({ name: '@google/gemini-cli', bins: ['gemini'], binFiles: [gemini] });
    expect(packageOf(pkg(dir, '@qwen-code/qwen-code', 'dist/index.js'))).toMatchObject({ name: '@qwen-code/qwen-code', bins: ['qwen-code'] });
    writeFileSync(join(dir, 'loose.js'), '');
    expect(packageOf(join(dir, 'loose.js'))).toBeNull();
  });

  it('`node …/dist/index.js`, the entry run by its path or through a node_modules/.bin link: a session, named gemini', () => {
    const dir = scratchDir();
    const entry = pkg(dir, '@google/gemini-cli', { gemini: 'dist/index.js' });
    mkdirSync(join(dir, 'node_modules', '.bin'));
    const link = join(dir, 'node_modules', '.bin', 'gem');
    symlinkSync(entry, link);
    for (const argv of [['node', entry], [entry], [link]]) {
      const names = namesOfCommand(argv, argv[0] === 'node' ? process.execPath : argv[0]!, dir, programs);
      expect(names, argv.join(' ')).toEqual(expect.arrayContaining(['gemini', '@google/gemini-cli']));
      expect(programKind(programs, argv, names), argv.join(' ')).toBe('session');
    }
    // A script relative to the working directory is found there.
    expect(namesOfCommand(['node', 'node_modules/@google/gemini-cli/dist/index.js'], process.execPath, dir, programs)).toContain('gemini');
  });

  it('a script of a package that is no agent stays one thing to do', () => {
    const dir = scratchDir();
    const entry = pkg(dir, 'my-build-tool', { build: 'dist/index.js' });
    const names = namesOfCommand(['node', entry], process.execPath, dir, programs);
    expect(names).toContain('build');
    expect(programKind(programs, ['node', entry], names)).toBe('one-shot');
  });

  it("a checkout of an agent's own repository: its bin script is the agent, its build script is not", () => {
    const dir = scratchDir();
    mkdirSync(join(dir, 'bundle'));
    mkdirSync(join(dir, 'scripts'));
    writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: '@google/gemini-cli', bin: { gemini: 'bundle/gemini.js' } }));
    writeFileSync(join(dir, 'bundle', 'gemini.js'), '');
    writeFileSync(join(dir, 'scripts', 'build.js'), '');
    const build = namesOfCommand(['node', 'scripts/build.js'], process.execPath, dir, programs);
    expect(build).not.toContain('gemini');
    expect(programKind(programs, ['node', 'scripts/build.js'], build)).toBe('one-shot');
    expect(programKind(programs, ['node', 'bundle/gemini.js'], namesOfCommand(['node', 'bundle/gemini.js'], process.execPath, dir, programs))).toBe('session');
  });

  it('claude.exe by its path is Claude Code, a session', () => {
    const dir = scratchDir();
    const exe = join(dir, 'claude.exe');
    writeFileSync(exe, '#!/bin/sh\n');
    chmodSync(exe, 0o755);
    expect(programKind(programs, [exe], namesOfCommand([exe], exe, dir, programs))).toBe('session');
  });
});
