// Whether a command `run` starts is a session of its own (a shell, REPL, agent, editor or pager that reads what to
// do from the person: each thing asked of it is a turn) or one thing to do (`npm test`, `make`, `bash -c …`,
// `python3 build.py`: the program itself is the turn, from its start to its exit). Decided from argv alone, before
// the program runs (or from a job's name alone), with the lists in config section `programs`. Pure.
import type { ProgramsConfig } from '../config/config.js';

export type ProgramKind = 'session' | 'one-shot';

/** A program's name as listed: base name, no login-shell dash, no trailing version ("python3.12" → "python"). */
export function programName(arg0: string): string {
  const base = arg0.slice(arg0.lastIndexOf('/') + 1).replace(/^-/, '');
  // A name that is all version ("7z") keeps its digits.
  const bare = base.replace(/[-_.]?\d+(?:\.\d+)*$/, '');
  return bare || base;
}

export function programKind(p: ProgramsConfig, argv: readonly string[]): ProgramKind {
  const [arg0, ...args] = throughLaunchers(p, argv);
  if (!arg0) return 'one-shot';
  const name = programName(arg0);
  if (p.sessions.includes(name)) {
    // "claude -p": the session program asked to do one thing and exit.
    const oneShot = p.session_one_shot_args.some((pair) => {
      const [prog, arg] = splitPair(pair);
      return prog === name && args.includes(arg);
    });
    return oneShot ? 'one-shot' : 'session';
  }
  if (p.interpreters.includes(name)) return interpreterKind(p, args);
  return 'one-shot';
}

/** An interpreter runs something given to it (a script, `-c CODE`, `-m MODULE`: an argument that is no option and
 * no option's value) as one turn, unless an interactive flag keeps it reading from the person afterwards. */
function interpreterKind(p: ProgramsConfig, args: readonly string[]): ProgramKind {
  let given = false;
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (p.interactive_flags.includes(a)) return 'session';
    if (a === '--') {
      given ||= i + 1 < args.length;
      break;
    }
    if (p.interpreter_value_options.includes(a)) {
      i++;
      continue;
    }
    if (!a.startsWith('-') && !a.startsWith('+')) given = true;
  }
  return given ? 'one-shot' : 'session';
}

/** `env FOO=1 claude`, `npx @google/gemini-cli`, `nice make`: the program a launcher starts is the one that counts
 * (its own options and VAR=value settings skipped). */
function throughLaunchers(p: ProgramsConfig, argv: readonly string[]): readonly string[] {
  let i = 0;
  while (i < argv.length - 1 && p.launchers.includes(programName(argv[i]!))) {
    i++;
    while (i < argv.length - 1 && (argv[i]!.startsWith('-') || /^[A-Za-z_]\w*=/.test(argv[i]!))) i++;
  }
  return argv.slice(i);
}

function splitPair(pair: string): [string, string] {
  const sp = pair.indexOf(' ');
  return sp < 0 ? [pair, ''] : [pair.slice(0, sp), pair.slice(sp + 1).trim()];
}
