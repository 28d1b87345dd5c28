// Agent hooks as data: the agents' documented payloads (tests/fixtures/hooks) reduced to events, the decision table
// from event and pane state to signal, the POST body's validation, and which pane a hook belongs to.
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { hookEventFrom, HOOK_MESSAGE_MAX, oneLine } from '../../src/hooks/payload.js';
import { hookAction, hookRule } from '../../src/analysis/hook-table.js';
import { parseHookBody } from '../../src/hooks/hook-body.js';
import { resolveHookPane } from '../../src/hooks/resolve-pane.js';
import { paneRefFromEnv } from '../../src/hooks/pane-ref.js';
import type { HookAgent } from '../../src/hooks/agents.js';
import type { MachineState } from '../../src/analysis/types.js';
import { ROOT } from '../helpers/screen.js';

const FIXTURES = join(ROOT, 'tests', 'fixtures', 'hooks');
const payload = (agent: HookAgent, name: string): unknown => JSON.parse(readFileSync(join(FIXTURES, agent, `${name}.json`), 'utf8'));

describe('hook payloads as the agents document them', () => {
  it('every fixture reduces to its event (the file name), detail and a one-line message', () => {
    const seen: string[] = [];
    for (const agent of ['claude', 'codex', 'gemini', 'qwen'] as const) {
      for (const f of readdirSync(join(FIXTURES, agent))) {
        const name = f.replace(/\.json$/, '');
        const ev = hookEventFrom(agent, payload(agent, name));
        if (typeof ev === 'string') throw new Error(`${agent}/${f}: ${ev}`);
        const [event, detail = ''] = name.split('.');
        expect(ev, `${agent}/${f}`).toMatchObject({ agent, event, detail });
        expect(ev.message).not.toContain('\n');
        seen.push(`${agent}/${name}`);
      }
    }
    expect(seen).toHaveLength(24);
  });

  it('keeps the parts that tell a person what happened', () => {
    expect(hookEventFrom('claude', payload('claude', 'UserPromptSubmit'))).toEqual({
      agent: 'claude', event: 'UserPromptSubmit', detail: '', session: 'abc123', message: 'Fix the failing test in src/parser.ts', input: '', cwd: '/home/user/my-project',
    });
    expect(hookEventFrom('claude', payload('claude', 'PermissionRequest'))).toMatchObject({ message: 'Bash: rm -rf build' });
    expect(hookEventFrom('claude', payload('claude', 'Notification.permission_prompt'))).toMatchObject({ detail: 'permission_prompt', message: 'Claude needs your permission to use Bash' });
    expect(hookEventFrom('claude', payload('claude', 'SessionEnd.prompt_input_exit'))).toMatchObject({ detail: 'prompt_input_exit' });
    expect(hookEventFrom('codex', payload('codex', 'agent-turn-complete'))).toEqual({
      agent: 'codex', event: 'agent-turn-complete', detail: '', session: 'b5f6c1e2-1c2d-4a5b-9e8f-0123456789ab', message: 'Rename complete and verified `cargo build` succeeds.',
      // what the turn was asked (Codex's own side requests are told apart by it) and where it ran (pane matching)
      input: 'Rename `foo` to `bar` and update the callsites.', cwd: '/home/user/my-project',
    });
    expect(hookEventFrom('gemini', payload('gemini', 'AfterAgent'))).toMatchObject({ message: 'I added a --verbose flag to src/cli.ts.' });
    expect(hookEventFrom('gemini', payload('gemini', 'Notification.ToolPermission'))).toMatchObject({ detail: 'ToolPermission', message: 'Tool Edit File requires editing' });
    expect(hookEventFrom('qwen', payload('qwen', 'PermissionRequest'))).toMatchObject({ message: 'run_shell_command: echo hi > hello.txt', cwd: '/home/me/project' });
    expect(hookEventFrom('qwen', payload('qwen', 'StopFailure.invalid_request'))).toMatchObject({ detail: 'invalid_request', message: '[API Error: 400 scripted HTTP 400]' });
    expect(hookEventFrom('qwen', payload('qwen', 'UserPromptSubmit'))).toMatchObject({ detail: '', message: 'write hello.txt' });
    expect(hookEventFrom('qwen', payload('qwen', 'UserPromptSubmit.continuation'))).toMatchObject({ detail: 'continuation', message: '' });
  });

  it('falls back on the event argument; without either there is no event', () => {
    expect(hookEventFrom('claude', undefined, 'Stop')).toMatchObject({ event: 'Stop', detail: '', message: '' });
    expect(hookEventFrom('claude', { hook_event_name: 42 }, 'Stop')).toMatchObject({ event: 'Stop' });
    expect(hookEventFrom('claude', { hook_event_name: 'Stop; rm -rf' }, 'Stop')).toMatchObject({ event: 'Stop' });
    expect(typeof hookEventFrom('claude', undefined)).toBe('string');
    expect(typeof hookEventFrom('codex', [1, 2])).toBe('string');
  });

  it('messages are one clean line of bounded length', () => {
    expect(oneLine('\n\n  first\x1b[31m line \nsecond')).toBe('first [31m line');
    const long = oneLine('x'.repeat(1000));
    expect(long).toHaveLength(HOOK_MESSAGE_MAX);
    expect(long.endsWith('…')).toBe(true);
  });
});

describe('the hook decision table', () => {
  const STATES: MachineState[] = ['IDLE', 'RUNNING', 'LONG_RUNNING', 'WAITING_APPROVAL', 'DONE', 'FAILED'];
  /** One row per event: the signal it sends in each state (`-` none), in STATES order. */
  const TABLE: Array<[HookAgent, string, string, string, string]> = [
    // agent, event, detail, rule, IDLE RUNNING LONG WAITING DONE FAILED
    ['claude', 'UserPromptSubmit', '', 'hook.claude.user_prompt_submit', 'run run run run run run'],
    ['claude', 'PreToolUse', '', 'hook.claude.pre_tool_use', 'run run run run run run'],
    ['claude', 'PostToolUse', '', 'hook.claude.post_tool_use', 'run run run run run run'],
    ['claude', 'PermissionRequest', '', 'hook.claude.permission_request', 'wait wait wait wait wait wait'],
    ['claude', 'Notification', 'permission_prompt', 'hook.claude.notification.permission_prompt', 'wait wait wait wait wait wait'],
    ['claude', 'Notification', 'elicitation_dialog', 'hook.claude.notification.elicitation_dialog', 'wait wait wait wait wait wait'],
    ['claude', 'Notification', 'idle_prompt', 'hook.claude.notification.idle_prompt', '- idle idle - - -'],
    ['claude', 'Notification', 'auth_success', 'hook.claude.notification.auth_success', '- - - - - -'],
    ['claude', 'Stop', '', 'hook.claude.stop', 'done done done done - -'],
    ['claude', 'SessionStart', 'compact', 'hook.claude.session_start', '- - - - - -'],
    ['claude', 'SessionEnd', 'prompt_input_exit', 'hook.claude.session_end', '- idle idle idle idle idle'],
    ['claude', 'SubagentStop', '', 'hook.claude.subagent_stop', '- - - - - -'],
    ['gemini', 'BeforeAgent', '', 'hook.gemini.before_agent', 'run run run run run run'],
    ['gemini', 'BeforeTool', '', 'hook.gemini.before_tool', 'run run run run run run'],
    ['gemini', 'Notification', 'ToolPermission', 'hook.gemini.notification.tool_permission', 'wait wait wait wait wait wait'],
    ['gemini', 'AfterAgent', '', 'hook.gemini.after_agent', 'done done done done - -'],
    ['gemini', 'SessionStart', 'startup', 'hook.gemini.session_start', '- - - - - -'],
    ['gemini', 'SessionEnd', 'exit', 'hook.gemini.session_end', '- idle idle idle idle idle'],
    ['qwen', 'UserPromptSubmit', '', 'hook.qwen.user_prompt_submit', 'run run run run run run'],
    // Qwen sending a tool's results back (an empty prompt): work within the turn, not a new one
    ['qwen', 'UserPromptSubmit', 'continuation', 'hook.qwen.user_prompt_submit', 'run run run run run run'],
    ['qwen', 'PreToolUse', '', 'hook.qwen.pre_tool_use', 'run run run run run run'],
    ['qwen', 'PermissionRequest', '', 'hook.qwen.permission_request', 'wait wait wait wait wait wait'],
    ['qwen', 'Notification', 'permission_prompt', 'hook.qwen.notification.permission_prompt', 'wait wait wait wait wait wait'],
    ['qwen', 'Notification', 'idle_prompt', 'hook.qwen.notification.idle_prompt', '- idle idle - - -'],
    ['qwen', 'Stop', '', 'hook.qwen.stop', 'done done done done - -'],
    // an API error ended the turn: FAILED, over a DONE the screen guessed too
    ['qwen', 'StopFailure', 'rate_limit', 'hook.qwen.stop_failure', 'failed failed failed failed failed -'],
    ['qwen', 'SessionStart', 'startup', 'hook.qwen.session_start', '- - - - - -'],
    ['qwen', 'SessionEnd', 'prompt_input_exit', 'hook.qwen.session_end', '- idle idle idle idle idle'],
    ['codex', 'agent-turn-complete', '', 'hook.codex.agent_turn_complete', 'done done done done - -'],
    ['codex', 'approval-requested', '', 'hook.codex.approval_requested', '- - - - - -'],
  ];

  it.each(TABLE)('%s %s %s', (agent, event, detail, rule, row) => {
    const got = STATES.map((s) => {
      const a = hookAction(agent, event, detail, s);
      expect(a.rule).toBe(rule);
      return a.kind === 'signal' ? a.type : '-';
    });
    expect(got.join(' ')).toBe(row);
  });

  it('rules are stable names: snake case, the notification type for notifications only', () => {
    expect(hookRule('claude', 'UserPromptSubmit', '')).toBe('hook.claude.user_prompt_submit');
    expect(hookRule('claude', 'SessionEnd', 'clear')).toBe('hook.claude.session_end');
    expect(hookRule('gemini', 'Notification', 'ToolPermission')).toBe('hook.gemini.notification.tool_permission');
  });

  it('an event named like an Object property is just unknown', () => {
    expect(hookAction('claude', 'constructor', '', 'RUNNING')).toMatchObject({ kind: 'none' });
    expect(hookAction('codex', 'toString', '', 'RUNNING')).toMatchObject({ kind: 'none' });
  });
});

describe('POST /api/hooks body', () => {
  const good = { v: 1, agent: 'claude', event: 'Stop', detail: '', session: 's', message: 'm', pane: { id: 'run-1' } };
  it('accepts a well-formed body, dropping empty pane fields', () => {
    expect(parseHookBody({ ...good, pane: { id: 'run-1', tty: '' } })).toEqual({ ok: true, body: { ...good, input: '', cwd: '' } });
    expect(parseHookBody({ v: 1, agent: 'codex', event: 'agent-turn-complete', input: 'fix it', cwd: '/p', pane: {} })).toEqual({
      ok: true, body: { v: 1, agent: 'codex', event: 'agent-turn-complete', detail: '', message: '', session: '', input: 'fix it', cwd: '/p', pane: {} },
    });
  });
  it.each([
    ['not an object', [1]],
    ['no version', { ...good, v: undefined }],
    ['unknown agent', { ...good, agent: 'copilot' }],
    ['bad event', { ...good, event: '../etc' }],
    ['bad detail', { ...good, detail: 'a b' }],
    ['long message', { ...good, message: 'x'.repeat(HOOK_MESSAGE_MAX + 1) }],
    ['long input', { ...good, input: 'x'.repeat(HOOK_MESSAGE_MAX + 1) }],
    ['cwd not a string', { ...good, cwd: 7 }],
    ['pane not an object', { ...good, pane: 'run-1' }],
    ['pane field not a string', { ...good, pane: { id: 7 } }],
    ['pane field too long', { ...good, pane: { tty: 'x'.repeat(600) } }],
  ])('refuses %s with a reason', (_what, body) => {
    const r = parseHookBody(body);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.reason.length).toBeGreaterThan(5);
  });
});

describe('which pane a hook came from', () => {
  const panes = [
    { id: 'run-100-1-abc' },
    { id: 'tmux:default:%3' },
    { id: 'tmux:/tmp/tmux-1000/work:%7' },
    { id: 'tmux:other:%7' },
    { id: 'iterm2:6F7D1E2A-0000-4B5C-8D9E-ABCDEF012345' },
    { id: 'tty-pane', tty: '/dev/pts/9' },
  ];
  it('the run pane id first, then tmux, iTerm2, the terminal', () => {
    expect(resolveHookPane({ id: 'run-100-1-abc', tmuxPane: '%3' }, panes)).toBe('run-100-1-abc');
    expect(resolveHookPane({ id: 'run-gone', tmuxPane: '%3', tmuxSocket: '/tmp/tmux-1000/default' }, panes)).toBe('tmux:default:%3');
    expect(resolveHookPane({ itermSession: 'w0t1p0:6f7d1e2a-0000-4b5c-8d9e-abcdef012345' }, panes)).toBe('iterm2:6F7D1E2A-0000-4B5C-8D9E-ABCDEF012345');
    expect(resolveHookPane({ tty: '/dev/pts/9' }, panes)).toBe('tty-pane');
  });
  it('two tmux servers with the same pane number: the socket decides, by path or name; no socket, no guess', () => {
    expect(resolveHookPane({ tmuxPane: '%7', tmuxSocket: '/tmp/tmux-1000/work' }, panes)).toBe('tmux:/tmp/tmux-1000/work:%7');
    expect(resolveHookPane({ tmuxPane: '%7', tmuxSocket: '/tmp/tmux-1000/other' }, panes)).toBe('tmux:other:%7');
    expect(resolveHookPane({ tmuxPane: '%7' }, panes)).toBeNull();
    const hashed = `s${createHash('sha256').update('/srv/sock/tmux-a').digest('hex').slice(0, 12)}`;
    expect(resolveHookPane({ tmuxPane: '%7', tmuxSocket: '/srv/sock/tmux-a' }, [...panes, { id: `tmux:${hashed}:%7` }])).toBe(`tmux:${hashed}:%7`);
    expect(resolveHookPane({ tmuxPane: '%70' }, panes)).toBeNull();
    // Ids carry the server's run (`@<pid>-<start>`): the socket still names the server.
    const runs = [{ id: 'tmux:work@4242-s44we8:%7' }, { id: 'tmux:other@77-s44wf0:%7' }];
    expect(resolveHookPane({ tmuxPane: '%7', tmuxSocket: '/tmp/tmux-1000/other' }, runs)).toBe('tmux:other@77-s44wf0:%7');
    expect(resolveHookPane({ tmuxPane: '%7', tmuxSocket: '/tmp/tmux-1000/work' }, runs)).toBe('tmux:work@4242-s44we8:%7');
  });
  it('nothing known: unmatched', () => {
    expect(resolveHookPane({}, panes)).toBeNull();
    expect(resolveHookPane({ tty: '/dev/pts/1', itermSession: 'w0t0p0:' }, panes)).toBeNull();
  });
  it('the hook process names its pane from its environment; the terminal only when nothing else does', () => {
    const tty = () => '/dev/pts/4';
    expect(paneRefFromEnv({ TERMSUPERVISOR_PANE_ID: 'run-1', TMUX_PANE: '%2', TMUX: '/tmp/tmux-1000/default,4242,0' }, tty)).toEqual({
      id: 'run-1', tmuxPane: '%2', tmuxSocket: '/tmp/tmux-1000/default',
    });
    expect(paneRefFromEnv({ ITERM_SESSION_ID: 'w0t0p0:UUID' }, tty)).toEqual({ itermSession: 'w0t0p0:UUID' });
    expect(paneRefFromEnv({}, tty)).toEqual({ tty: '/dev/pts/4' });
  });
});
