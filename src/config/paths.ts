// XDG locations for everything termsupervisor writes (state, config, runtime), so two users or two instances with
// different XDG dirs never share files.
import { homedir } from 'node:os';
import { join } from 'node:path';

const APP = 'termsupervisor';

export function stateDir(env: NodeJS.ProcessEnv = process.env): string {
  return join(env['XDG_STATE_HOME'] || join(homedir(), '.local', 'state'), APP);
}

export function configDir(env: NodeJS.ProcessEnv = process.env): string {
  return join(env['XDG_CONFIG_HOME'] || join(homedir(), '.config'), APP);
}

export function userConfigPath(env: NodeJS.ProcessEnv = process.env): string {
  return join(configDir(env), 'config.json');
}

/** The JSONL event log `run` writes and `make loghook` tails. */
export function eventLogPath(env: NodeJS.ProcessEnv = process.env): string {
  return join(stateDir(env), 'events.jsonl');
}

/** The daemon's history database, unless --db says otherwise. */
export function defaultDbPath(env: NodeJS.ProcessEnv = process.env): string {
  return join(stateDir(env), 'history.sqlite');
}
