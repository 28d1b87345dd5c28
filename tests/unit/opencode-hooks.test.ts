// opencode's and Kilo's hooks: our plugin file (installed, kept idempotent, removed, never touching the person's
// other plugins), the plugin itself run as opencode runs it (imported, its handlers called: it must start
// `<program> hook <agent> <event>` with the event on stdin, in order), and what each event means in the hook table.
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { applyPlan, hookStatus, planInstall, planUninstall, settingsFile } from '../../src/hooks/install.js';
import { pluginSource, PLUGIN_MARK } from '../../src/hooks/opencode-plugin.js';
import { hookEventFrom } from '../../src/hooks/payload.js';
import { hookAction } from '../../src/analysis/hook-table.js';
import { OPENCODE_EVENTS } from '../../src/hooks/agents.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});
const scratch = (): string => {
  const d = mkdtempSync(join(tmpdir(), 'ts-opencode-'));
  dirs.push(d);
  return d;
};

describe('hooks install|uninstall opencode / kilo: a plugin file of our own', () => {
  for (const agent of ['opencode', 'kilo'] as const) {
    it(`${agent}: installed beside the person's plugins, idempotent, removed again leaving theirs`, () => {
      const home = scratch();
      const file = settingsFile(agent, { home });
      expect(file).toBe(join(home, '.config', agent, 'plugin', 'termsupervisor.js'));
      const theirs = join(home, '.config', agent, 'plugin', 'mine.js');
      mkdirSync(join(home, '.config', agent, 'plugin'), { recursive: true });
      writeFileSync(theirs, 'export const Mine = async () => ({})\n');

      expect(hookStatus(agent, { home }).installed).toEqual([]);
      const first = planInstall(agent, '/opt/ts/bin/termsupervisor', { home });
      expect(first.result.status).toBe('changed');
      expect(applyPlan(first).backup).toBeNull();
      const text = readFileSync(file, 'utf8');
      expect(text.startsWith(PLUGIN_MARK)).toBe(true);
      expect(text).toContain('"/opt/ts/bin/termsupervisor"');
      expect(text).toContain(`const AGENT = "${agent}"`);
      expect(hookStatus(agent, { home })).toMatchObject({ installed: [...OPENCODE_EVENTS], missing: [] });
      expect(planInstall(agent, '/opt/ts/bin/termsupervisor', { home }).result.status).toBe('unchanged');

      applyPlan(planUninstall(agent, { home }));
      expect(existsSync(file)).toBe(false);
      expect(readFileSync(theirs, 'utf8')).toContain('Mine');
      expect(planUninstall(agent, { home }).result.status).toBe('unchanged');
    });
  }

  it('a termsupervisor.js we did not write is left alone by install and uninstall', () => {
    const home = scratch();
    const file = settingsFile('opencode', { home });
    mkdirSync(join(home, '.config', 'opencode', 'plugin'), { recursive: true });
    writeFileSync(file, 'export const Someone = async () => ({})\n');
    expect(planInstall('opencode', 'termsupervisor', { home }).result.status).toBe('refused');
    expect(planUninstall('opencode', { home }).result.status).toBe('refused');
    expect(readFileSync(file, 'utf8')).toContain('Someone');
  });

  it('follows $XDG_CONFIG_HOME when no home is given', () => {
    expect(settingsFile('kilo', { env: { XDG_CONFIG_HOME: '/x/cfg' } })).toBe('/x/cfg/kilo/plugin/termsupervisor.js');
  });
});

describe('the plugin as opencode runs it', () => {
  it('forwards its events to `<program> hook <agent> <event>` with the event on stdin, in order, and nothing else', async () => {
    const dir = scratch();
    const log = join(dir, 'calls.log');
    const program = join(dir, 'fake-termsupervisor');
    // stands in for termsupervisor: one line per call, its arguments and what came on stdin
    writeFileSync(
      program,
      `#!${process.execPath}\nlet s='';process.stdin.on('data',d=>s+=d).on('end',()=>{require('fs').appendFileSync(${JSON.stringify(log)},JSON.stringify({argv:process.argv.slice(2),stdin:JSON.parse(s)})+'\\n')})\n`,
    );
    chmodSync(program, 0o755);
    const module = join(dir, 'plugin.mjs');
    writeFileSync(module, pluginSource('kilo', program));
    const mod = (await import(pathToFileURL(module).href)) as { TermsupervisorPlugin: () => Promise<Record<string, (x: unknown) => Promise<void>>> };
    const hooks = await mod.TermsupervisorPlugin();
    await hooks['chat.message']!({ sessionID: 's1', agent: 'code' });
    await hooks['event']!({ event: { id: 'e1', type: 'session.status', properties: { sessionID: 's1', status: { type: 'busy' } } } });
    await hooks['event']!({ event: { id: 'e2', type: 'message.part.updated', properties: {} } });
    await hooks['event']!({ event: { id: 'e3', type: 'permission.asked', properties: { sessionID: 's1', permission: 'bash', patterns: ['ls'] } } });
    await hooks['event']!({ event: { id: 'e4', type: 'session.status', properties: { sessionID: 's1', status: { type: 'idle' } } } });
    const lines = (): string[] => (existsSync(log) ? readFileSync(log, 'utf8').split('\n').filter(Boolean) : []);
    for (let i = 0; i < 400 && lines().length < 4; i++) await new Promise((r) => setTimeout(r, 25));
    const calls = lines().map((l) => JSON.parse(l) as { argv: string[]; stdin: { type: string } });
    expect(calls.map((c) => c.argv)).toEqual([
      ['hook', 'kilo', 'chat.message'],
      ['hook', 'kilo', 'session.status'],
      ['hook', 'kilo', 'permission.asked'],
      ['hook', 'kilo', 'session.status'],
    ]);
    expect(calls[0]!.stdin).toEqual({ type: 'chat.message', properties: { sessionID: 's1', agent: 'code' } });
    expect(calls[3]!.stdin).toMatchObject({ type: 'session.status', properties: { status: { type: 'idle' } } });
  });
});

describe('opencode events in the hook table', () => {
  const ev = (type: string, properties: Record<string, unknown>) => {
    const e = hookEventFrom('opencode', { id: 'x', type, properties });
    if (typeof e === 'string') throw new Error(e);
    return e;
  };
  const act = (type: string, properties: Record<string, unknown>, state: Parameters<typeof hookAction>[3] = 'RUNNING') => {
    const e = ev(type, properties);
    return hookAction('opencode', e.event, e.detail, state);
  };

  it('reduces a bus event to its type, kind, session and one line', () => {
    expect(ev('session.status', { sessionID: 'ses_1', status: { type: 'retry', attempt: 2, message: 'Rate limit reached' } })).toMatchObject({ event: 'session.status', detail: 'retry', session: 'ses_1', message: 'Rate limit reached' });
    expect(ev('permission.asked', { sessionID: 'ses_1', permission: 'bash', patterns: ['rm -rf build'] })).toMatchObject({ detail: '', message: 'bash: rm -rf build' });
    expect(ev('session.error', { error: { name: 'APIError', data: { message: 'Invalid request' } } })).toMatchObject({ detail: 'APIError', message: 'Invalid request' });
  });

  it('a new user message starts a turn; busy and retry are work; idle ends the turn', () => {
    expect(act('chat.message', { sessionID: 's' }, 'IDLE')).toMatchObject({ kind: 'signal', type: 'run', effect: 'turn_start', rule: 'hook.opencode.chat_message' });
    expect(act('session.status', { status: { type: 'busy' } }, 'DONE')).toMatchObject({ kind: 'signal', type: 'run' });
    expect(act('session.status', { status: { type: 'retry' } })).toMatchObject({ kind: 'signal', type: 'run' });
    expect(act('session.status', { status: { type: 'idle' } })).toMatchObject({ kind: 'signal', type: 'done', rule: 'hook.opencode.session_status.idle' });
  });

  it('an error fails the turn, an interrupt does not', () => {
    expect(act('session.error', { error: { name: 'APIError', data: { message: 'x' } } })).toMatchObject({ kind: 'signal', type: 'failed', rule: 'hook.opencode.session_error.apierror' });
    expect(act('session.error', { error: { name: 'MessageAbortedError', data: { message: 'aborted' } } })).toMatchObject({ kind: 'none' });
    expect(act('session.error', { error: { name: 'APIError' } }, 'FAILED')).toMatchObject({ kind: 'none' });
  });

  it('the permission dialog waits; allowed is work, rejected leaves the end to the idle that follows', () => {
    expect(act('permission.asked', { permission: 'bash' })).toMatchObject({ kind: 'signal', type: 'wait' });
    expect(act('permission.replied', { reply: 'once' }, 'WAITING_APPROVAL')).toMatchObject({ kind: 'signal', type: 'run' });
    expect(act('permission.replied', { reply: 'reject' }, 'WAITING_APPROVAL')).toMatchObject({ kind: 'none' });
    expect(act('question.asked', { questions: [{ question: 'Which one?' }] })).toMatchObject({ kind: 'signal', type: 'wait' });
  });

  it('Kilo reads the same table under its own name', () => {
    const e = hookEventFrom('kilo', { type: 'session.status', properties: { status: { type: 'idle' } } });
    if (typeof e === 'string') throw new Error(e);
    expect(hookAction('kilo', e.event, e.detail, 'RUNNING')).toMatchObject({ kind: 'signal', type: 'done', rule: 'hook.kilo.session_status.idle' });
  });
});
