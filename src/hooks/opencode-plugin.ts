// opencode and Kilo Code CLI have no hook commands: they load JS plugins from their config directory
// (`<config>/opencode/plugin/*.js`, `<config>/kilo/plugin/*.js`). Ours is one file of its own there, written whole:
// it hands the events termsupervisor needs to `termsupervisor hook <agent> <event>` (the event as JSON on stdin),
// one at a time and in order. Installing never touches another file of that directory (the person's own plugins);
// a file of our name that we did not write is left alone.
import { join } from 'node:path';
import { homedir } from 'node:os';
import { OPENCODE_EVENTS } from './agents.js';
import type { EditResult } from './settings-json.js';

export type PluginAgent = 'opencode' | 'kilo';

/** The first line of every plugin we write: how install, uninstall and status know the file is ours. */
export const PLUGIN_MARK = '// termsupervisor plugin:';
/** The file name, inside the agent's plugin directory. */
export const PLUGIN_NAME = 'termsupervisor.js';
/** A `termsupervisor hook` that has not exited after this long no longer holds up the events after it. */
export const PLUGIN_HOOK_WAIT_MS = 2000;

/** `$XDG_CONFIG_HOME/<agent>/plugin/termsupervisor.js` (~/.config when unset, or when a home is given). */
export function pluginFile(agent: PluginAgent, home: string | undefined, env: NodeJS.ProcessEnv): string {
  const config = home === undefined && env['XDG_CONFIG_HOME'] ? env['XDG_CONFIG_HOME'] : join(home ?? homedir(), '.config');
  return join(config, agent, 'plugin', PLUGIN_NAME);
}

export function isOurPlugin(text: string | null): boolean {
  return text !== null && text.startsWith(PLUGIN_MARK);
}

export function installPlugin(before: string | null, agent: PluginAgent, program: string): EditResult {
  if (before !== null && !isOurPlugin(before)) return { status: 'refused', reason: `a file of that name that termsupervisor did not write (its first line is not "${PLUGIN_MARK}")` };
  const text = pluginSource(agent, program);
  return { status: before === text ? 'unchanged' : 'changed', text, notes: [] };
}

/** Removing ours: `text` null means the file goes. */
export function uninstallPlugin(before: string | null): EditResult | { status: 'remove'; notes: string[] } {
  if (before === null) return { status: 'unchanged', text: '', notes: [] };
  if (!isOurPlugin(before)) return { status: 'refused', reason: `not termsupervisor's plugin (its first line is not "${PLUGIN_MARK}")` };
  return { status: 'remove', notes: [] };
}

/** The events our plugin forwards, read back from an installed file (for `hooks status`). */
export function pluginEvents(text: string | null): string[] {
  if (!isOurPlugin(text)) return [];
  const m = /^const EVENTS = (\[.*\]);$/m.exec(text!);
  try {
    const list: unknown = m ? JSON.parse(m[1]!) : [];
    return Array.isArray(list) ? list.filter((x): x is string => typeof x === 'string') : [];
  } catch {
    return [];
  }
}

/** The plugin module. Plain JS with no imports but node's, so opencode's bundled runtime loads it as is. */
export function pluginSource(agent: PluginAgent, program: string): string {
  const bus = OPENCODE_EVENTS.filter((e) => e !== 'chat.message');
  return `${PLUGIN_MARK} tells termsupervisor when a ${agent} turn starts, waits on you, ends or fails.
// Written by \`termsupervisor hooks install ${agent}\`; \`termsupervisor hooks uninstall ${agent}\` removes it.
// Changes to this file are overwritten by the next install.
import { spawn } from "node:child_process";

const PROGRAM = ${JSON.stringify(program)};
const AGENT = ${JSON.stringify(agent)};
const EVENTS = ${JSON.stringify(bus)};
const WAIT_MS = ${PLUGIN_HOOK_WAIT_MS};

// One hook at a time, in the order the events came: a later one must not overtake an earlier one.
let queue = Promise.resolve();

function send(event, payload) {
  queue = queue.then(
    () =>
      new Promise((done) => {
        let child;
        try {
          child = spawn(PROGRAM, ["hook", AGENT, event], { stdio: ["pipe", "ignore", "ignore"] });
        } catch {
          return done();
        }
        const timer = setTimeout(done, WAIT_MS);
        const finish = () => {
          clearTimeout(timer);
          done();
        };
        child.on("error", finish);
        child.on("exit", finish);
        child.stdin.on("error", () => {});
        child.stdin.end(JSON.stringify(payload));
      }),
  );
}

export const TermsupervisorPlugin = async () => ({
  event: async ({ event }) => {
    if (event && EVENTS.includes(event.type)) send(event.type, event);
  },
  "chat.message": async (input) => {
    send("chat.message", { type: "chat.message", properties: input });
  },
});
`;
}
