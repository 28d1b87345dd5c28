// JSON with comments and trailing commas, as VS Code and the agents' settings files allow, read by jsonc-parser
// (the parser VS Code itself uses). A syntax error is refused with its place, never half-read.
import { parse, printParseErrorCode, type ParseError } from 'jsonc-parser';

/** What JSONC accepts beyond JSON: comments, trailing commas; an empty file is not a value. */
export const JSONC_OPTIONS = { disallowComments: false, allowTrailingComma: true, allowEmptyContent: false } as const;

export function parseJsonc(text: string, what: string): unknown {
  const errors: ParseError[] = [];
  const value: unknown = parse(text, errors, JSONC_OPTIONS);
  if (errors.length) throw new Error(`${what}: not valid JSON: ${describeParseError(text, errors[0]!)}`);
  return value;
}

/** "CommaExpected at line 3, column 7". */
export function describeParseError(text: string, e: ParseError): string {
  const before = text.slice(0, e.offset);
  const line = before.split('\n').length;
  const column = e.offset - before.lastIndexOf('\n');
  return `${printParseErrorCode(e.error)} at line ${line}, column ${column}`;
}
