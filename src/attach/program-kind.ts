// Whether a command `run` starts is a session of its own (a shell, REPL, agent, editor or pager that reads what to
// do from the person: each thing asked of it is a turn) or one thing to do (`npm test`, `make`, `bash -c …`,
// `python3 build.py`: the program itself is the turn, from its start to its exit). Decided from argv alone, before
// the program runs, with the lists in config section `run`. Pure.
import type { RunConfig } from '../config/config.js';

export type ProgramKind = 'session' | 'one-shot';

/** A program's name as listed: base name, no login-shell dash, no trailing version ("python3.12" → "python"). */
export function programName(arg0: string): string {
  const base = arg0.slice(arg0.lastIndexOf('/') + 1).replace(/^-/, '');
  // A name that is all version ("7z") keeps its digits.
  const bare = base.replace(/[-_.]?\d+(?:\.\d+)*$/, '');
  return bare || base;
}

export function programKind(run: RunConfig, argv: readonly string[]): ProgramKind {
  const [arg0, ...args] = argv;
  if (!arg0) return 'one-shot';
  const name = programName(arg0);
  if (run.sessions.includes(name)) {
    // "claude -p": the session program asked to do one thing and exit.
    const oneShot = run.session_one_shot_args.some((pair) => {
      const [prog, arg] = splitPair(pair);
      return prog === name && args.includes(arg);
    });
    return oneShot ? 'one-shot' : 'session';
  }
  if (run.interpreters.includes(name)) return interpreterKind(run, args);
  return 'one-shot';
}

/** An interpreter runs something given to it (a script, `-c CODE`, `-m MODULE`: an argument that is no option and
 * no option's value) as one turn, unless an interactive flag keeps it reading from the person afterwards. */
function interpreterKind(run: RunConfig, args: readonly string[]): ProgramKind {
  let given = false;
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (run.interactive_flags.includes(a)) return 'session';
    if (a === '--') {
      given ||= i + 1 < args.length;
      break;
    }
    if (run.interpreter_value_options.includes(a)) {
      i++;
      continue;
    }
    if (!a.startsWith('-') && !a.startsWith('+')) given = true;
  }
  return given ? 'one-shot' : 'session';
}

function splitPair(pair: string): [string, string] {
  const sp = pair.indexOf(' ');
  return sp < 0 ? [pair, ''] : [pair.slice(0, sp), pair.slice(sp + 1).trim()];
}
