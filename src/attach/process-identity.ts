// Reads what a process is from the process itself (Linux /proc) and the files it runs: its title, its
// executable's real path, its command line, the script its interpreter runs and the npm package that script belongs
// to. The names these give (src/analysis/program-identity.ts) tell an agent started by its path or through its
// interpreter (`~/.local/bin/claude.exe`, `node …/@google/gemini-cli/dist/index.js`) from a one-shot program.
// Anything unreadable is left out: the facts say what was seen, never a guess.
import { readFileSync, readlinkSync, realpathSync, statSync } from 'node:fs';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import type { ProgramsConfig } from '../config/config.js';
import { identityNames, interpreterScript, type ProcessFacts } from '../analysis/program-identity.js';

/** How many directories above a script are searched for its package.json (a package's entry point sits a few
 * levels below its root: `dist/src/index.js`); bounded so a script outside any package costs a few stats. */
const PACKAGE_SEARCH_DEPTH = 8;
/** A package.json larger than this is not read (a real one is a few kilobytes; this guards the daemon's memory). */
const MAX_PACKAGE_JSON_BYTES = 1 << 20;

/** The names the process `pid` goes by (empty off Linux or once it is gone). */
export function namesOfPid(pid: number, programs: ProgramsConfig): string[] {
  return identityNames(factsOfPid(pid, programs));
}

/** The names a command line goes by before it runs: its executable (`path`: where PATH finds it), the script an
 * interpreter is given, that script's package. */
export function namesOfCommand(argv: readonly string[], path: string | null, cwd: string, programs: ProgramsConfig): string[] {
  const facts: ProcessFacts = { argv };
  const exe = real(path);
  if (exe) facts.exe = exe;
  addScript(facts, argv, cwd, programs);
  // A script started by its own path (`…/dist/index.js` with a `#!/usr/bin/env node` line) is its package's.
  if (exe && !facts.pkg) {
    const pkg = packageOf(exe);
    if (pkg && packageSpeaksFor(pkg, exe)) facts.pkg = pkg;
  }
  return identityNames(facts);
}

export function factsOfPid(pid: number, programs: ProgramsConfig): ProcessFacts {
  const facts: ProcessFacts = {};
  if (process.platform !== 'linux') return facts;
  const comm = read(`/proc/${pid}/comm`)?.replace(/\n$/, '');
  if (comm) facts.comm = comm;
  const exe = link(`/proc/${pid}/exe`);
  if (exe) facts.exe = exe.replace(/ \(deleted\)$/, '');
  const cmdline = read(`/proc/${pid}/cmdline`);
  if (!cmdline) return facts;
  const argv = cmdline.split('\0');
  if (argv[argv.length - 1] === '') argv.pop();
  facts.argv = argv;
  addScript(facts, argv, link(`/proc/${pid}/cwd`) ?? '/', programs);
  return facts;
}

function addScript(facts: ProcessFacts, argv: readonly string[], cwd: string, programs: ProgramsConfig): void {
  const script = interpreterScript(programs, argv);
  if (!script) return;
  const path = real(isAbsolute(script) ? script : resolve(cwd, script));
  if (!path) return;
  facts.script = path;
  facts.scriptGiven = script;
  const pkg = packageOf(path);
  if (pkg && packageSpeaksFor(pkg, path)) facts.pkg = pkg;
}

/** An installed package (under a node_modules folder) speaks for every script in it; a package being worked on
 * (a checkout of the agent's own repository) only for the scripts its `bin` names: `node scripts/build.js` there is
 * a build, not the agent. */
function packageSpeaksFor(pkg: PackageFacts, script: string): boolean {
  return script.includes('/node_modules/') || pkg.binFiles.includes(script);
}

/** A package.json's word on what it is: its name, the commands its `bin` installs, and the real paths of their
 * files. */
export interface PackageFacts {
  name: string;
  bins: string[];
  binFiles: string[];
}

/** The nearest package.json above `file` that has a name: that name and the commands its `bin` installs. */
export function packageOf(file: string): PackageFacts | null {
  let dir = dirname(file);
  for (let i = 0; i < PACKAGE_SEARCH_DEPTH; i++) {
    const pj = join(dir, 'package.json');
    const parsed = readPackageJson(pj);
    // A package.json without a name (`{"type": "module"}` in a build folder) belongs to no package: go on up.
    if (parsed && typeof parsed['name'] === 'string' && parsed['name']) {
      const name = parsed['name'];
      const bin = parsed['bin'];
      const entries: Array<[string, unknown]> = typeof bin === 'string' ? [[name.startsWith('@') ? name.slice(name.indexOf('/') + 1) : name, bin]] : bin && typeof bin === 'object' ? Object.entries(bin) : [];
      const binFiles = entries.flatMap(([, f]) => (typeof f === 'string' ? [real(resolve(dir, f))] : [])).filter((f): f is string => f !== null);
      return { name, bins: entries.map(([b]) => b), binFiles };
    }
    const up = dirname(dir);
    if (up === dir) break;
    dir = up;
  }
  return null;
}

function readPackageJson(path: string): Record<string, unknown> | null {
  try {
    if (statSync(path).size > MAX_PACKAGE_JSON_BYTES) return null;
    const v: unknown = JSON.parse(readFileSync(path, 'utf8'));
    return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

function read(path: string): string | null {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return null;
  }
}

function link(path: string): string | null {
  try {
    return readlinkSync(path);
  } catch {
    return null;
  }
}

function real(path: string | null): string | null {
  if (!path) return null;
  try {
    return realpathSync(path);
  } catch {
    return null;
  }
}
