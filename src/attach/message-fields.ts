// Field-by-field checks for the JSON messages links send (a `run` wrapper's pane link, the iTerm2 bridge): each
// protocol throws its own error class, with the same wording for the same mistake.
export type Obj = Record<string, unknown>;

export interface FieldReader {
  /** A string of at most `max` characters (matching `re` when given). */
  str(o: Obj, k: string, max: number, re?: RegExp): string;
  /** A safe whole number. */
  int(o: Obj, k: string): number;
  /** A whole number from `lo` to `hi`; `name` is how the field is called in the error (default `k`). */
  range(o: Obj, k: string, lo: number, hi: number, name?: string): number;
}

export function fieldReader(fail: (message: string) => Error): FieldReader {
  const int = (o: Obj, k: string): number => {
    const v = o[k];
    if (typeof v !== 'number' || !Number.isSafeInteger(v)) throw fail(`${k}: expected a whole number`);
    return v;
  };
  return {
    str(o, k, max, re) {
      const v = o[k];
      if (typeof v !== 'string' || v.length > max || (re && !re.test(v))) throw fail(`${k}: expected ${re ? 'a plain id' : 'a string'} of at most ${max} characters`);
      return v;
    },
    int,
    range(o, k, lo, hi, name = k) {
      const v = int(o, k);
      if (v < lo || v > hi) throw fail(`${name}: expected ${lo} to ${hi}`);
      return v;
    },
  };
}
