// The OSC payload parsers: each known payload becomes one signal, anything else is ignored (null), never thrown on.
import { describe, expect, it } from 'vitest';
import { parseAgentState, parseIterm, parseNotification, parseShellIntegration } from '../../src/screen/osc-parse.js';

describe('OSC 133 / 633 shell integration', () => {
  for (const protocol of ['osc133', 'osc633'] as const) {
    it(`${protocol}: A, B, C`, () => {
      expect(parseShellIntegration(protocol, 'A')).toEqual({ kind: 'prompt-start', protocol });
      expect(parseShellIntegration(protocol, 'B')).toEqual({ kind: 'command-input', protocol });
      expect(parseShellIntegration(protocol, 'C')).toEqual({ kind: 'command-executed', protocol });
    });

    it(`${protocol}: D with and without an exit code`, () => {
      expect(parseShellIntegration(protocol, 'D;0')).toEqual({ kind: 'command-finished', protocol, exitCode: 0 });
      expect(parseShellIntegration(protocol, 'D;2')).toEqual({ kind: 'command-finished', protocol, exitCode: 2 });
      expect(parseShellIntegration(protocol, 'D;130')).toEqual({ kind: 'command-finished', protocol, exitCode: 130 });
      expect(parseShellIntegration(protocol, 'D')).toEqual({ kind: 'command-finished', protocol, exitCode: undefined });
      expect(parseShellIntegration(protocol, 'D;')).toEqual({ kind: 'command-finished', protocol, exitCode: undefined });
    });

    it(`${protocol}: extra parameters after the letter are tolerated`, () => {
      expect(parseShellIntegration(protocol, 'A;cl=m;aid=12')).toEqual({ kind: 'prompt-start', protocol });
      expect(parseShellIntegration(protocol, 'D;1;aid=12')).toEqual({ kind: 'command-finished', protocol, exitCode: 1 });
    });

    it(`${protocol}: a garbage exit code is no exit code, unknown letters are ignored`, () => {
      expect(parseShellIntegration(protocol, 'D;abc')).toEqual({ kind: 'command-finished', protocol, exitCode: undefined });
      expect(parseShellIntegration(protocol, 'Z')).toBeNull();
      expect(parseShellIntegration(protocol, '')).toBeNull();
      expect(parseShellIntegration(protocol, 'a')).toBeNull();
    });
  }

  it('633 E carries the command line, decoding \\xAB escapes and \\\\', () => {
    expect(parseShellIntegration('osc633', 'E;ls -la')).toEqual({ kind: 'command-line', protocol: 'osc633', commandLine: 'ls -la' });
    expect(parseShellIntegration('osc633', 'E;echo a\\x3bb')).toEqual({ kind: 'command-line', protocol: 'osc633', commandLine: 'echo a;b' });
    expect(parseShellIntegration('osc633', 'E;dir C:\\\\tmp')).toEqual({ kind: 'command-line', protocol: 'osc633', commandLine: 'dir C:\\tmp' });
    expect(parseShellIntegration('osc633', 'E')).toEqual({ kind: 'command-line', protocol: 'osc633', commandLine: '' });
  });

  it('133 has no E', () => {
    expect(parseShellIntegration('osc133', 'E;ls')).toBeNull();
  });

  it('the nonce option rides on any mark; D\'s exit code is its first field that is no option', () => {
    expect(parseShellIntegration('osc133', 'A;nonce=ab12')).toEqual({ kind: 'prompt-start', protocol: 'osc133', nonce: 'ab12' });
    expect(parseShellIntegration('osc133', 'B;cl=m;nonce=ab12')).toEqual({ kind: 'command-input', protocol: 'osc133', nonce: 'ab12' });
    expect(parseShellIntegration('osc133', 'C;nonce=ab12')).toEqual({ kind: 'command-executed', protocol: 'osc133', nonce: 'ab12' });
    expect(parseShellIntegration('osc133', 'D;2;nonce=ab12')).toEqual({ kind: 'command-finished', protocol: 'osc133', exitCode: 2, nonce: 'ab12' });
    expect(parseShellIntegration('osc133', 'D;nonce=ab12;0')).toEqual({ kind: 'command-finished', protocol: 'osc133', exitCode: 0, nonce: 'ab12' });
    expect(parseShellIntegration('osc133', 'D;nonce=ab12')).toEqual({ kind: 'command-finished', protocol: 'osc133', exitCode: undefined, nonce: 'ab12' });
    // An empty or oversized nonce is no nonce.
    expect(parseShellIntegration('osc133', 'A;nonce=')).toEqual({ kind: 'prompt-start', protocol: 'osc133' });
    expect(parseShellIntegration('osc133', `A;nonce=${'f'.repeat(129)}`)).toEqual({ kind: 'prompt-start', protocol: 'osc133' });
    // VS Code's 633 E: the nonce is the field after the command line.
    expect(parseShellIntegration('osc633', 'E;ls\\x3b pwd;ab12')).toEqual({ kind: 'command-line', protocol: 'osc633', commandLine: 'ls; pwd', nonce: 'ab12' });
  });
});

describe('OSC 1337 (iTerm2)', () => {
  it('SetUserVar decodes the base64 value', () => {
    const b64 = Buffer.from('claude-code ✳').toString('base64');
    expect(parseIterm(`SetUserVar=agent=${b64}`)).toEqual({ kind: 'user-var', name: 'agent', value: 'claude-code ✳' });
    expect(parseIterm('SetUserVar=empty=')).toEqual({ kind: 'user-var', name: 'empty', value: '' });
  });

  it('CurrentDir is the working directory', () => {
    expect(parseIterm('CurrentDir=/home/me/project')).toEqual({ kind: 'cwd', path: '/home/me/project' });
  });

  it('other keys and malformed payloads are ignored', () => {
    expect(parseIterm('RemoteHost=me@box')).toBeNull();
    expect(parseIterm('SetUserVar=noequals')).toBeNull();
    expect(parseIterm('ClearScrollback')).toBeNull();
    expect(parseIterm('')).toBeNull();
  });
});

describe('OSC 7501 (Codex agent state)', () => {
  it('state=working:app=codex', () => {
    expect(parseAgentState('state=working:app=codex')).toEqual({ kind: 'agent-state', protocol: 'osc7501', state: 'working', extra: { app: 'codex' } });
  });

  it('state=blocked:app=codex:kind=permission', () => {
    expect(parseAgentState('state=blocked:app=codex:kind=permission')).toEqual({
      kind: 'agent-state',
      protocol: 'osc7501',
      state: 'blocked',
      extra: { app: 'codex', kind: 'permission' },
    });
  });

  it('done, error and idle', () => {
    for (const state of ['done', 'error', 'idle']) expect(parseAgentState(`state=${state}:app=codex`)).toMatchObject({ state });
  });

  it('payloads without a state are ignored', () => {
    expect(parseAgentState('app=codex')).toBeNull();
    expect(parseAgentState('state=')).toBeNull();
    expect(parseAgentState('garbage')).toBeNull();
    expect(parseAgentState('')).toBeNull();
    expect(parseAgentState('=working')).toBeNull();
  });
});

describe('OSC 9 and OSC 777 notifications', () => {
  it('OSC 9 is a notification body', () => {
    expect(parseNotification(9, 'Build finished')).toEqual({ kind: 'notification', protocol: 'osc9', title: '', body: 'Build finished' });
  });

  it('OSC 9;4 is ConEmu progress, not a notification', () => {
    expect(parseNotification(9, '4;1;50')).toBeNull();
    expect(parseNotification(9, '4;0')).toBeNull();
  });

  it('OSC 777 notify;title;body (the body may contain ;)', () => {
    expect(parseNotification(777, 'notify;Codex;Turn complete')).toEqual({ kind: 'notification', protocol: 'osc777', title: 'Codex', body: 'Turn complete' });
    expect(parseNotification(777, 'notify;T;a;b')).toMatchObject({ title: 'T', body: 'a;b' });
    expect(parseNotification(777, 'notify')).toMatchObject({ title: '', body: '' });
  });

  it('OSC 777 verbs other than notify are ignored', () => {
    expect(parseNotification(777, 'precmd')).toBeNull();
    expect(parseNotification(777, 'preexec;ls')).toBeNull();
  });
});
