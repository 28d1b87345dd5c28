// What a process is, from what the process itself shows rather than the word it was started by: its executable's
// real path, the script its interpreter runs, the npm package that script belongs to (its `name` and `bin`
// commands), and its process title. `~/.local/bin/claude.exe`, `node …/node_modules/@google/gemini-cli/dist/index.js`
// and `~/.local/share/claude/versions/2.0.31` each name the agent they are. The facts are read by the sources
// (src/attach/process-identity.ts reads /proc and the file system); this turns them into names. Pure.
import type { ProgramsConfig } from '../config/config.js';

/** What a source found out about one process (any field may be missing: not readable, or not there). */
export interface ProcessFacts {
  /** The process title (Linux `comm`; a Node program's `process.title`). */
  comm?: string;
  /** The executable's real path (symlinks resolved). */
  exe?: string;
  /** The command line as the process shows it now. */
  argv?: readonly string[];
  /** The real path of the script an interpreter runs (see interpreterScript). */
  script?: string;
  /** That script as the interpreter was given it (a `claude` symlink to the script a person installed): the name it
   * was started by. */
  scriptGiven?: string;
  /** The nearest package.json above the script: its `name`, and the commands its `bin` installs. */
  pkg?: { name: string; bins: readonly string[] };
}

/** Script file extensions dropped from a script's name (`gemini.js` is `gemini`). */
const SCRIPT_EXT = /\.(?:[cm]?[jt]s|py|sh|rb|pl|php|lua)$/;
/** Directory names that say nothing of the program a version-named executable belongs to. */
const NEUTRAL_DIRS = new Set(['versions', 'version', 'bin', 'current', 'dist', 'build', 'libexec', 'lib']);

/** A program's name as listed: base name, no login-shell dash, no `.exe`, no trailing version ("python3.12" →
 * "python", "claude.exe" → "claude"). */
export function programName(arg0: string): string {
  const base = arg0
    .slice(arg0.lastIndexOf('/') + 1)
    .replace(/^-/, '')
    .replace(/\.exe$/i, '');
  // A name that is all version ("7z") keeps its digits.
  const bare = base.replace(/[-_.]?\d+(?:\.\d+)*$/, '');
  return bare || base;
}

/** An executable's name from its real path. One named by its version alone (a native install keeps each release
 * as `…/claude/versions/2.0.31`) is named by the first directory above it that is no version and no `bin`. */
export function executableName(path: string): string {
  const parts = path.split('/').filter(Boolean);
  for (let i = parts.length - 1; i >= 0; i--) {
    const p = parts[i]!.replace(/\.exe$/i, '');
    if (isVersion(p) || (i < parts.length - 1 && NEUTRAL_DIRS.has(p))) continue;
    return programName(p);
  }
  return programName(path);
}

function isVersion(s: string): boolean {
  return /^v?\d+(?:\.\d+)*(?:[-+][\w.]+)?$/.test(s);
}

/** A script's name: base name without its extension. */
export function scriptName(path: string): string {
  const base = path.slice(path.lastIndexOf('/') + 1).replace(SCRIPT_EXT, '');
  return programName(base);
}

/** An npm package's name without its scope (`@google/gemini-cli` → `gemini-cli`). */
export function unscoped(pkg: string): string {
  return pkg.startsWith('@') ? pkg.slice(pkg.indexOf('/') + 1) : pkg;
}

/**
 * The script an interpreter in `argv` runs (`node x.js`, `python3 -u train.py`), or null: not an interpreter, or
 * it runs code given inline (`-c`, `-e`, `-m`: an option's value is no script) or nothing at all.
 */
export function interpreterScript(p: ProgramsConfig, argv: readonly string[]): string | null {
  const [arg0, ...args] = argv;
  if (!arg0 || !p.interpreters.includes(programName(arg0))) return null;
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === '--') return args[i + 1] ?? null;
    if (p.interpreter_value_options.includes(a)) {
      i++;
      continue;
    }
    if (INLINE_CODE.test(a)) return null;
    if (!a.startsWith('-') && !a.startsWith('+')) return a;
  }
  return null;
}

/** Options after which an interpreter runs code given on its command line, not a script file. */
const INLINE_CODE = /^-(?:[a-zA-Z]*[cem]|-eval|-command|-print)$/;

/** Every name the process goes by, the most telling first: its package's commands and name, its script's name,
 * its executable's, its command line's first word, its title. Duplicates and empties dropped. */
export function identityNames(f: ProcessFacts): string[] {
  const names: string[] = [];
  if (f.pkg) names.push(...f.pkg.bins, unscoped(f.pkg.name), f.pkg.name);
  if (f.script) names.push(scriptName(f.script));
  if (f.scriptGiven) names.push(scriptName(f.scriptGiven));
  if (f.exe) names.push(executableName(f.exe));
  const arg0 = f.argv?.[0];
  if (arg0) names.push(programName(arg0.split(' ')[0]!));
  if (f.comm) names.push(programName(f.comm));
  return [...new Set(names.filter((n) => n.length > 0))];
}
