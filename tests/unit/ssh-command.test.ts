// How the daemon calls ssh for a remote tmux server: the person's ssh command split as GIT_SSH_COMMAND is, the
// options it cannot do without, destinations, the far side's command line, ssh's failures made into reasons, and
// the `remotes` config checked item by item.
import { describe, expect, it } from 'vitest';
import { controlPath, parseDestination, shellQuote, shellWords, sshArgs, sshBase, sshFailure, SshSpecError, type SshSettings } from '../../src/attach/ssh/ssh-command.js';
import { remoteServerArgs, sshRunner } from '../../src/attach/tmux/tmux-runner.js';
import { ConfigError, loadConfig } from '../../src/config/config.js';
import { parseArgs } from '../../src/cli/args.js';
import { remoteSpecs } from '../../src/daemon/remotes.js';

const settings: SshSettings = { base: ['ssh'], identityFile: null, aliveIntervalS: 1, aliveCountMax: 3, connectTimeoutS: 5, controlPersistS: 60, controlDir: '/run/user/1000/termsupervisor' };

describe('ssh command', () => {
  it('splits the ssh command as a shell would, without expanding anything', () => {
    expect(shellWords('ssh -F ~/.ssh/work  -o "ProxyJump=a b" -i \'/k y\' x\\ y')).toEqual(['ssh', '-F', '~/.ssh/work', '-o', 'ProxyJump=a b', '-i', '/k y', 'x y']);
    expect(shellWords('"a\\"b" \'\'')).toEqual(['a"b', '']);
    expect(() => shellWords('ssh "open')).toThrow(SshSpecError);
    expect(sshBase('ssh -F cfg', {})).toEqual(['ssh', '-F', 'cfg']);
    expect(sshBase('ssh -F cfg', { TERMSUPERVISOR_SSH_COMMAND: '/opt/ssh -v' })).toEqual(['/opt/ssh', '-v']);
    expect(sshBase('', {})).toEqual(['ssh']);
  });

  it('reads [user@]host[:port] and refuses what ssh would read as an option', () => {
    expect(parseDestination('devbox')).toEqual({ user: null, host: 'devbox', port: null });
    expect(parseDestination('me@devbox:2222')).toEqual({ user: 'me', host: 'devbox', port: 2222 });
    expect(parseDestination('me@[::1]:22')).toEqual({ user: 'me', host: '::1', port: 22 });
    for (const bad of ['', '-oProxyCommand=x', 'me@', 'a b', 'h:99999']) expect(() => parseDestination(bad), bad).toThrow(SshSpecError);
  });

  it('always adds BatchMode, strict host keys, keep-alives and a shared connection, before the person’s options (ssh keeps the first)', () => {
    const dest = parseDestination('me@devbox:2222');
    const { file, args } = sshArgs(dest, { ...settings, base: ['ssh', '-F', 'cfg'], identityFile: '/k' }, 'tmux -u list-sessions');
    expect(file).toBe('ssh');
    expect(args.slice(0, 3)).toEqual(['-T', '-o', 'BatchMode=yes']);
    expect(args.indexOf('-F')).toBeGreaterThan(args.indexOf('ControlPersist=60'));
    const opts = args.filter((_, i) => args[i - 1] === '-o');
    expect(opts).toEqual(expect.arrayContaining(['BatchMode=yes', 'StrictHostKeyChecking=yes', 'ServerAliveInterval=1', 'ServerAliveCountMax=3', 'ConnectTimeout=5', 'ControlMaster=auto', `ControlPath=${controlPath(settings.controlDir, dest)}`, 'ControlPersist=60']));
    expect(args.slice(-5)).toEqual(['-p', '2222', 'me@devbox', '--', 'tmux -u list-sessions']);
    expect(args).toContain('/k');
    // One socket per destination, short enough for sun_path.
    expect(controlPath('/d', dest)).not.toBe(controlPath('/d', parseDestination('me@devbox')));
    expect(controlPath(settings.controlDir, dest).length).toBeLessThan(80);
  });

  it('quotes the far side’s tmux command for its shell, with -u and the server', () => {
    expect(shellQuote('plain-word_1.0/%x')).toBe('plain-word_1.0/%x');
    expect(shellQuote("it's $HOME")).toBe(`'it'\\''s $HOME'`);
    expect(remoteServerArgs('')).toEqual([]);
    expect(remoteServerArgs('work')).toEqual(['-L', 'work']);
    expect(remoteServerArgs('/tmp/s')).toEqual(['-S', '/tmp/s']);
    const r = sshRunner({ name: 'devbox', dest: parseDestination('devbox'), ssh: settings, serverArgs: ['-L', 'w'] });
    expect(r.command(['list-sessions', '-F', '#{session_id}\x1f#{pid}']).args.at(-1)).toBe(`tmux -u -L w list-sessions -F '#{session_id}\x1f#{pid}'`);
    expect(r.command(['-V'], false).args.at(-1)).toBe('tmux -u -V');
    expect(r.transportFailed(255)).toBe(true);
    expect(r.transportFailed(1)).toBe(false);
  });

  it('says how to accept an unknown host key, and gives ssh’s own line otherwise', () => {
    const dest = parseDestination('me@10.0.0.5:2222');
    const unknown = 'No ED25519 host key is known for [10.0.0.5]:2222 and you have requested strict checking.\nHost key verification failed.\n';
    const why = sshFailure(unknown, dest);
    expect(why).toContain('No ED25519 host key is known for [10.0.0.5]:2222');
    expect(why).toContain('Host key verification failed.');
    expect(why).toContain('ssh-keyscan -p 2222 10.0.0.5 >> ~/.ssh/known_hosts');
    expect(why).toContain('ssh -p 2222 me@10.0.0.5');
    expect(sshFailure('ssh: connect to host 10.0.0.5 port 2222: Connection refused\n', dest)).toBe('ssh: connect to host 10.0.0.5 port 2222: Connection refused');
    expect(sshFailure('', dest)).toBe('');
  });
});

describe('remotes config and --remote', () => {
  it('takes remotes item by item, with defaults, and refuses unknown keys, wrong types, missing and repeated names', () => {
    const cfg = loadConfig({ overrides: { remotes: [{ name: 'devbox', destination: 'me@devbox:2222' }] } });
    const [spec] = remoteSpecs(cfg, [], '/tmp/ts-unit-control', {});
    expect(spec).toMatchObject({ name: 'devbox', dest: { user: 'me', host: 'devbox', port: 2222 }, serverArgs: [], tmux: 'tmux', allowTyping: false });
    expect(spec!.ssh.identityFile).toBeNull();
    expect(cfg.ssh.alive_interval_s * (cfg.ssh.alive_count_max + 1)).toBeLessThanOrEqual(5);
    const problems = (o: unknown) => {
      try {
        loadConfig({ overrides: { remotes: o } as never });
        return [];
      } catch (e) {
        return (e as ConfigError).problems;
      }
    };
    expect(problems([{ name: 'a', destination: 'h', allow_typing: 'yes' }])).toEqual(['remotes[0].allow_typing: expected a boolean, got string "yes"']);
    expect(problems([{ name: 'a', destination: 'h', typing: true }])[0]).toMatch(/^remotes\[0\]\.typing: unknown key/);
    expect(problems([{ destination: 'h' }])).toEqual(['remotes[0].name: must be set']);
    expect(problems([{ name: 'a b', destination: 'h' }])[0]).toMatch(/is not a usable name/);
    expect(problems([{ name: 'a', destination: '' }])).toEqual(['remotes[0].destination: must be set']);
    expect(problems('devbox')).toEqual(['remotes: expected a list of objects, got string "devbox"']);
    // A name configured twice (or a --remote of the same host) is refused when the daemon starts.
    const twice = loadConfig({ overrides: { remotes: [{ name: 'a', destination: 'h' }] } });
    expect(() => remoteSpecs(twice, ['a'], '/tmp/ts-unit-control', {})).toThrow(/"a" is configured twice/);
    expect(() => remoteSpecs(twice, ['-oProxyCommand=x'], '/tmp/ts-unit-control', {})).toThrow(SshSpecError);
  });

  it('--remote may be given more than once (the daemon command reads it so)', () => {
    const a = parseArgs(['--remote', 'a', '--remote=me@b:22', '--port', '0'], { values: ['port', 'remote'], flags: [], multiple: ['remote'] });
    expect(a.lists.get('remote')).toEqual(['a', 'me@b:22']);
    expect(a.options.get('port')).toBe('0');
  });
});
