// Whole-number bench options (`--daemon-panes 100`), refused with the option's name when malformed.
export function positiveIntOption(options: Map<string, string | true>, name: string, fallback: number): number {
  const v = options.get(name);
  if (v === undefined) return fallback;
  const n = Number(v);
  if (v === true || !Number.isInteger(n) || n < 1) throw new Error(`--${name} must be a positive whole number, got ${JSON.stringify(v)}`);
  return n;
}
