// notify.command: the person's own command, run on the events they choose (notify.command_states), with what
// happened in its environment: TS_PANE, TS_PANE_NAME, TS_STATE, TS_PROGRAM, TS_QUESTION, TS_OPTIONS, TS_COMMAND,
// TS_EXIT_CODE, TS_DURATION_S, TS_TITLE, TS_BODY, TS_URL. Run by /bin/sh -c with the text only in the environment,
// never in the command line: a screen line cannot run code. Plays a sound, pings a service the daemon does not know.
import { execFile } from 'node:child_process';
import type { Notification, NotifyChannel, NotifyKind } from './types.js';

/** A command still running after this is killed: a hook must not pile up processes. */
export const COMMAND_TIMEOUT_MS = 10_000;

export function commandChannel(command: string, kinds: readonly string[], timeoutMs = COMMAND_TIMEOUT_MS, baseEnv: NodeJS.ProcessEnv = process.env): NotifyChannel {
  const wanted = new Set(kinds);
  return {
    name: 'command',
    detail: command,
    noRetry: true,
    send: (n) => {
      if (wanted.size && !wanted.has(n.kind)) return Promise.resolve();
      return new Promise((resolve, reject) => {
        execFile('/bin/sh', ['-c', command], { env: { ...baseEnv, ...commandEnv(n) }, timeout: timeoutMs, windowsHide: true }, (err, _out, stderr) => {
          if (err) reject(new Error(`notify.command failed: ${err.message}${stderr ? `: ${String(stderr).trim().slice(0, 200)}` : ''}`));
          else resolve();
        });
      });
    },
  };
}

/** The environment a command hook gets (empty strings for what is not known). */
export function commandEnv(n: Notification): Record<string, string> {
  return {
    TS_PANE: n.paneId,
    TS_PANE_NAME: n.paneName,
    TS_STATE: n.kind satisfies NotifyKind,
    TS_PROGRAM: n.program,
    TS_QUESTION: n.question ?? '',
    TS_OPTIONS: (n.options ?? []).join('\n'),
    TS_COMMAND: n.command ?? '',
    TS_EXIT_CODE: n.exitCode === null || n.exitCode === undefined ? '' : String(n.exitCode),
    TS_DURATION_S: n.durationS === null || n.durationS === undefined ? '' : String(Math.round(n.durationS)),
    TS_TITLE: n.title,
    TS_BODY: n.body,
    TS_URL: n.url ?? '',
    TS_URGENT: n.urgent ? '1' : '0',
    TS_PANES: (n.panes ?? [n.paneId]).join('\n'),
  };
}
