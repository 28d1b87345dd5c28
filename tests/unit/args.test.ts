// The commands' option reader (util.parseArgs underneath): values, flags, repeatable options, `--`, and refusals in
// the usage words every command prints.
import { describe, expect, it } from 'vitest';
import { parseArgs, UsageError } from '../../src/cli/args.js';

const spec = { values: ['port', 'remote'], flags: ['json', 'help'], multiple: ['remote'] };

describe('parseArgs', () => {
  it('reads values both ways, flags, -h, positionals, and what follows --', () => {
    const a = parseArgs(['PANE', '--port', '5', '--json', '--remote=a', 'x', '--remote', 'b@host:22', '--', '--json', '-h'], spec);
    expect(a.positional).toEqual(['PANE', 'x']);
    expect(a.rest).toEqual(['--json', '-h']);
    expect(Object.fromEntries(a.options)).toEqual({ port: '5', json: true, remote: 'b@host:22' });
    expect(a.lists.get('remote')).toEqual(['a', 'b@host:22']);
    expect(parseArgs(['-h'], spec).options.get('help')).toBe(true);
    expect(parseArgs(['-'], spec).positional).toEqual(['-']); // a lone dash is a file name (stdin)
    expect(parseArgs(['--port=-1'], spec).options.get('port')).toBe('-1');
  });

  it('refuses in usage words', () => {
    const refusal = (argv: string[]) => {
      try {
        parseArgs(argv, spec);
      } catch (e) {
        expect(e).toBeInstanceOf(UsageError);
        return (e as Error).message;
      }
      return null;
    };
    expect(refusal(['--nope'])).toBe('unknown option --nope');
    expect(refusal(['-x'])).toBe('unknown option -x');
    expect(refusal(['--port'])).toBe('--port needs a value');
    expect(refusal(['--json=1'])).toBe('--json takes no value');
    expect(refusal(['--port', '-1'])).toBe('--port needs a value (one starting with "-" is written --port=-…)');
  });
});
