// Command-line options, read by Node's own util.parseArgs (`--flag value`, `--flag=value`, boolean flags, `-h`, and
// `--` ending options), with its refusals said in the words every command's usage uses.
import { parseArgs as nodeParseArgs, type ParseArgsConfig } from 'node:util';

export class UsageError extends Error {}

export interface ParsedArgs {
  positional: string[];
  /** Each option's value (its last one when given more than once), or true for a flag. */
  options: Map<string, string | true>;
  /** Every value of a repeatable option (spec.multiple), in order. */
  lists: Map<string, string[]>;
  /** Everything after `--`. */
  rest: string[];
}

export interface ArgsSpec {
  /** Options that take a value. */
  values: string[];
  /** Options that take none. */
  flags: string[];
  /** Value options that may be given more than once (`--remote a --remote b`). */
  multiple?: string[];
}

export function parseArgs(argv: string[], spec: ArgsSpec): ParsedArgs {
  const options: NonNullable<ParseArgsConfig['options']> = { help: { type: 'boolean', short: 'h' } };
  for (const name of spec.values) options[name] = { type: 'string', multiple: spec.multiple?.includes(name) ?? false };
  for (const name of spec.flags) options[name] = { type: 'boolean', ...(name === 'help' && { short: 'h' }) };
  let tokens;
  try {
    ({ tokens } = nodeParseArgs({ args: argv, options, allowPositionals: true, strict: true, tokens: true }));
  } catch (e) {
    throw new UsageError(usageMessage(e));
  }
  const out: ParsedArgs = { positional: [], options: new Map(), lists: new Map(), rest: [] };
  let ended = false;
  for (const t of tokens) {
    if (t.kind === 'option-terminator') ended = true;
    else if (t.kind === 'positional') (ended ? out.rest : out.positional).push(t.value);
    else {
      const value = t.value ?? true;
      out.options.set(t.name, value);
      if (typeof value === 'string' && spec.multiple?.includes(t.name)) out.lists.set(t.name, [...(out.lists.get(t.name) ?? []), value]);
    }
  }
  return out;
}

/** util.parseArgs's refusal in our usage words: "unknown option --x", "--port needs a value", "--json takes no value". */
function usageMessage(e: unknown): string {
  const err = e as { code?: string; message?: string };
  const message = err.message ?? String(e);
  const name = /'(-{1,2}[^'\s=<]+)/.exec(message)?.[1] ?? '';
  if (err.code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') return `unknown option ${name}`;
  if (err.code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE') {
    if (/does not take an argument/.test(message)) return `${name} takes no value`;
    if (/ambiguous/.test(message)) return `${name} needs a value (one starting with "-" is written ${name}=-…)`;
    return `${name} needs a value`;
  }
  return message.split('\n')[0]!;
}

export function oneOf<T extends string>(value: string | true | undefined, allowed: readonly T[], name: string, fallback: T): T {
  if (value === undefined) return fallback;
  if (value === true || !(allowed as readonly string[]).includes(value)) {
    throw new UsageError(`--${name} must be one of ${allowed.join('|')}, got ${JSON.stringify(value)}`);
  }
  return value as T;
}
