// A small argv parser: `--flag value`, `--flag=value`, boolean flags, and `--` ending options.
export class UsageError extends Error {}

export interface ParsedArgs {
  positional: string[];
  options: Map<string, string | true>;
  /** Everything after `--`. */
  rest: string[];
  /** Options that may be given more than once (spec.lists), every value in order. */
  lists: Map<string, string[]>;
}

export function parseArgs(argv: string[], spec: { values: string[]; flags: string[]; lists?: string[] }): ParsedArgs {
  const positional: string[] = [];
  const lists = new Map<string, string[]>();
  const options = new Map<string, string | true>();
  let rest: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === '--') {
      rest = argv.slice(i + 1);
      break;
    }
    if (a.startsWith('--') && a.length > 2) {
      const eq = a.indexOf('=');
      const name = eq > 0 ? a.slice(2, eq) : a.slice(2);
      if (spec.flags.includes(name)) {
        if (eq > 0) throw new UsageError(`--${name} takes no value`);
        options.set(name, true);
      } else if (spec.lists?.includes(name)) {
        const v = eq > 0 ? a.slice(eq + 1) : argv[++i];
        if (v === undefined || v === '') throw new UsageError(`--${name} needs a value`);
        lists.set(name, [...(lists.get(name) ?? []), v]);
      } else if (spec.values.includes(name)) {
        const v = eq > 0 ? a.slice(eq + 1) : argv[++i];
        if (v === undefined) throw new UsageError(`--${name} needs a value`);
        options.set(name, v);
      } else {
        throw new UsageError(`unknown option --${name}`);
      }
    } else if (a === '-h') {
      options.set('help', true);
    } else if (a.startsWith('-') && a !== '-') {
      throw new UsageError(`unknown option ${a}`); // no short options but -h; "-" alone is a file name (stdin)
    } else {
      positional.push(a);
    }
  }
  return { positional, options, rest, lists };
}

export function oneOf<T extends string>(value: string | true | undefined, allowed: readonly T[], name: string, fallback: T): T {
  if (value === undefined) return fallback;
  if (value === true || !(allowed as readonly string[]).includes(value)) {
    throw new UsageError(`--${name} must be one of ${allowed.join('|')}, got ${JSON.stringify(value)}`);
  }
  return value as T;
}
