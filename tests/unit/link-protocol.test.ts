// The pane link's messages, field by field: what is taken (and how it comes out), what is refused and why.
import { describe, expect, it } from 'vitest';
import { LINK_PROTOCOL_VERSION, LinkMessageError, parseLinkMessage, type LinkMessage } from '../../src/attach/link-protocol.js';

const hello = { type: 'hello', v: LINK_PROTOCOL_VERSION, id: 'run-123-1-abcdef', name: 'claude', agent: 'claude', command: 'claude --resume', cols: 120, rows: 40 };
const j = (o: unknown) => JSON.stringify(o);

describe('valid messages', () => {
  it.each<[string, string, LinkMessage]>([
    ['hello', j(hello), hello as LinkMessage],
    ['hello with pid', j({ ...hello, pid: 4242 }), { ...hello, pid: 4242 } as LinkMessage],
    ['hello with where it runs', j({ ...hello, pid: 7, host: 'box.local', tty: '/dev/pts/3' }), { ...hello, pid: 7, host: 'box.local', tty: '/dev/pts/3' } as LinkMessage],
    ['hello with a mark nonce', j({ ...hello, markNonce: 'ab'.repeat(16) }), { ...hello, markNonce: 'ab'.repeat(16) } as LinkMessage],
    ['hello without agent is auto', j({ ...hello, agent: undefined }), { ...hello, agent: 'auto' } as LinkMessage],
    ['hello with id characters . _ : @ -', j({ ...hello, id: 'tmux:s1.p2@host_a-b' }), { ...hello, id: 'tmux:s1.p2@host_a-b' } as LinkMessage],
    ['hello drops unknown fields', j({ ...hello, extra: { deep: true } }), hello as LinkMessage],
    ['hello with 1x1 and 2000x2000', j({ ...hello, cols: 2000, rows: 1 }), { ...hello, cols: 2000, rows: 1 } as LinkMessage],
    ['hello with an empty name', j({ ...hello, name: '' }), { ...hello, name: '' } as LinkMessage],
    ['output', j({ type: 'output', data: 'hi\x1b[31m\r\n' }), { type: 'output', data: 'hi\x1b[31m\r\n' }],
    ['output, empty', j({ type: 'output', data: '' }), { type: 'output', data: '' }],
    ['input', j({ type: 'input', data: 'ls\r' }), { type: 'input', data: 'ls\r' }],
    ['resize', j({ type: 'resize', cols: 100, rows: 30 }), { type: 'resize', cols: 100, rows: 30 }],
    ['process', j({ type: 'process', name: 'sleep', pid: 7 }), { type: 'process', name: 'sleep', pid: 7 }],
    ['process without pid', j({ type: 'process', name: 'vim' }), { type: 'process', name: 'vim' }],
    ['process with its names, reading', j({ type: 'process', name: 'node', pid: 7, names: ['gemini', '@google/gemini-cli'], reading: true }), { type: 'process', name: 'node', pid: 7, names: ['gemini', '@google/gemini-cli'], reading: true }],
    ['command executed', j({ type: 'command', phase: 'executed' }), { type: 'command', phase: 'executed' }],
    ['command finished', j({ type: 'command', phase: 'finished', exitCode: 130 }), { type: 'command', phase: 'finished', exitCode: 130 }],
    ['exit with a code', j({ type: 'exit', code: 0 }), { type: 'exit', code: 0, signal: null }],
    ['exit with null code and a signal', j({ type: 'exit', code: null, signal: 9 }), { type: 'exit', code: null, signal: 9 }],
    ['exit with null signal', j({ type: 'exit', code: 130, signal: null }), { type: 'exit', code: 130, signal: null }],
    ['exit with a negative code', j({ type: 'exit', code: -1 }), { type: 'exit', code: -1, signal: null }],
  ])('%s', (_name, raw, want) => {
    expect(parseLinkMessage(raw)).toEqual(want);
  });

  it('takes a long output chunk whole', () => {
    const data = 'x'.repeat(1 << 20);
    expect(parseLinkMessage(j({ type: 'output', data }))).toEqual({ type: 'output', data });
  });
});

describe('refused messages', () => {
  it.each<[string, string, RegExp]>([
    ['bad JSON', '{"type":"output",', /not JSON/],
    ['empty', '', /not JSON/],
    ['an array', j([{ type: 'output', data: 'x' }]), /not an object/],
    ['null', 'null', /not an object/],
    ['a string', j('output'), /not an object/],
    ['a number', '42', /not an object/],
    ['unknown type', j({ type: 'bogus' }), /unknown message type "bogus"/],
    ['no type', j({ data: 'x' }), /unknown message type/],
    ['a type that is not a string', j({ type: ['output'] }), /unknown message type/],
    ['a huge unknown type is cut in the reason', j({ type: 'y'.repeat(10_000) }), /^unknown message type "y{39}$/],
    ['hello with a host too long to be one', j({ ...hello, host: 'h'.repeat(254) }), /host/],
    ['hello with a tty that is not a string', j({ ...hello, tty: 3 }), /tty/],
    ['hello with wrong version', j({ ...hello, v: 2 }), /protocol version 2 is not 1/],
    ['hello with a mark nonce that is no hex token', j({ ...hello, markNonce: 'x;nonce=1' }), /^markNonce:/],
    ['hello with a mark nonce too short to be one', j({ ...hello, markNonce: 'ab' }), /^markNonce:/],
    ['hello with version as a string', j({ ...hello, v: '1' }), /protocol version/],
    ['hello without version', j({ ...hello, v: undefined }), /protocol version undefined/],
    ['hello with an unknown agent', j({ ...hello, agent: 'vim' }), /agent must be one of auto, claude/],
    ['hello with a space in the id', j({ ...hello, id: 'a b' }), /^id:/],
    ['hello with a slash in the id', j({ ...hello, id: 'a/b' }), /^id:/],
    ['hello with a dot-dot id', j({ ...hello, id: '..' }), /^id:/],
    ['hello with a dot id', j({ ...hello, id: '.' }), /^id:/],
    ['hello with a newline in the id', j({ ...hello, id: 'a\nb' }), /^id:/],
    ['hello with a non-ASCII id', j({ ...hello, id: 'pané' }), /^id:/],
    ['hello with an empty id', j({ ...hello, id: '' }), /^id:/],
    ['hello with an 81-character id', j({ ...hello, id: 'a'.repeat(81) }), /^id:/],
    ['hello with a numeric id', j({ ...hello, id: 12 }), /^id:/],
    ['hello with a long name', j({ ...hello, name: 'n'.repeat(81) }), /^name:/],
    ['hello without a command', j({ ...hello, command: undefined }), /^command:/],
    ['hello with a 4097-character command', j({ ...hello, command: 'c'.repeat(4097) }), /^command:/],
    ['hello with huge cols', j({ ...hello, cols: 100_000 }), /^cols: expected 1 to 2000/],
    ['hello with zero rows', j({ ...hello, rows: 0 }), /^rows: expected 1 to 2000/],
    ['hello with fractional cols', j({ ...hello, cols: 80.5 }), /^cols: expected a whole number/],
    ['hello with cols as a string', j({ ...hello, cols: '80' }), /^cols: expected a whole number/],
    ['hello with a fractional pid', j({ ...hello, pid: 1.5 }), /^pid:/],
    ['hello with a null pid', j({ ...hello, pid: null }), /^pid:/],
    ['output with non-string data', j({ type: 'output', data: 42 }), /output: data must be a string/],
    ['output with array data', j({ type: 'output', data: ['a'] }), /output: data must be a string/],
    ['output without data', j({ type: 'output' }), /output: data must be a string/],
    ['input with null data', j({ type: 'input', data: null }), /input: data must be a string/],
    ['resize with negative rows', j({ type: 'resize', cols: 80, rows: -1 }), /^rows:/],
    ['resize with huge cols', j({ type: 'resize', cols: 1e9, rows: 24 }), /^cols:/],
    ['resize with unsafe integer', j({ type: 'resize', cols: 2 ** 60, rows: 24 }), /^cols: expected a whole number/],
    ['process without a name', j({ type: 'process' }), /^name:/],
    ['command with another phase', j({ type: 'command', phase: 'started' }), /^command: phase/],
    ['command finished without a status', j({ type: 'command', phase: 'finished' }), /^exitCode:/],
    ['command finished with a status past 255', j({ type: 'command', phase: 'finished', exitCode: 256 }), /^exitCode:/],
    ['process with a long name', j({ type: 'process', name: 'p'.repeat(257) }), /^name:/],
    ['process with names not a list', j({ type: 'process', name: 'node', names: 'gemini' }), /^names:/],
    ['process with too many names', j({ type: 'process', name: 'node', names: Array(17).fill('x') }), /^names:/],
    ['process with a name not a string', j({ type: 'process', name: 'node', names: [3] }), /^names:/],
    ['process with reading not a boolean', j({ type: 'process', name: 'node', reading: 'yes' }), /^reading:/],
    ['exit without a code', j({ type: 'exit' }), /^code:/],
    ['exit with a string code', j({ type: 'exit', code: '0' }), /^code:/],
    ['exit with a fractional signal', j({ type: 'exit', code: null, signal: 1.5 }), /^signal:/],
  ])('%s', (_name, raw, reason) => {
    let err: unknown;
    try {
      parseLinkMessage(raw);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(LinkMessageError);
    expect((err as Error).message).toMatch(reason);
    expect((err as Error).message.length).toBeLessThan(200);
  });
});
