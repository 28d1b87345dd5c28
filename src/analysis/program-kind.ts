// Whether a command `run` starts is a session of its own (a shell, REPL, agent, editor or pager that reads what to
// do from the person: each thing asked of it is a turn) or one thing to do (`npm test`, `make`, `bash -c …`,
// `python3 build.py`: the program itself is the turn, from its start to its exit). Decided before the program runs,
// from argv and what the program is (program-identity.ts: its executable's real name, its script's, its npm
// package's), with the lists in config section `programs`. A program taken for one thing to do that turns out to
// wait on the person's keys at a prompt is at rest all the same (terminal-read.ts). Pure.
import type { ProgramsConfig } from '../config/config.js';
import { programName } from './program-identity.js';

export { programName } from './program-identity.js';

export type ProgramKind = 'session' | 'one-shot';

/** `identity`: the names the program goes by besides its argv (identityNames: `claude.exe`'s real name, the
 * package `node …/dist/index.js` belongs to); any of them listed as a session makes it one. */
export function programKind(p: ProgramsConfig, argv: readonly string[], identity: readonly string[] = []): ProgramKind {
  const [arg0, ...args] = throughLaunchers(p, argv);
  if (!arg0) return 'one-shot';
  const name = programName(arg0);
  const session = p.sessions.includes(name) ? name : identity.find((n) => p.sessions.includes(n));
  if (session !== undefined) {
    // "claude -p": the session program asked to do one thing and exit.
    const oneShot = p.session_one_shot_args.some((pair) => {
      const [prog, arg] = splitPair(pair);
      return prog === session && args.includes(arg);
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
