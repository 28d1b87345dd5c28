// Where a running daemon can be found: a small JSON file under XDG_RUNTIME_DIR (else the XDG state dir), written
// on start and removed on clean shutdown. A file left by a killed daemon is recognised by its dead pid.
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { stateDir } from '../config/paths.js';

export interface RuntimeInfo {
  url: string;
  pid: number;
  startedAt: number;
  version: string;
  /** The history database it uses (`doctor` checks that one, whatever --db the daemon was given). */
  db?: string;
}

export function runtimeFilePath(env: NodeJS.ProcessEnv = process.env): string {
  const base = env['XDG_RUNTIME_DIR'] ? join(env['XDG_RUNTIME_DIR'], 'termsupervisor') : stateDir(env);
  return join(base, 'daemon.json');
}

export function writeRuntimeFile(info: RuntimeInfo, path = runtimeFilePath()): void {
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  writeFileSync(path, JSON.stringify(info) + '\n', { mode: 0o600 });
}

/** Removes the file if it is still ours (a newer daemon may have replaced it). */
export function removeRuntimeFile(pid: number, path = runtimeFilePath()): void {
  if (readRuntimeFile(path)?.pid === pid) rmSync(path, { force: true });
}

/** The running daemon's info, or null (no file, unreadable, or its process is gone). */
export function readRuntimeFile(path = runtimeFilePath()): RuntimeInfo | null {
  let info: RuntimeInfo;
  try {
    info = JSON.parse(readFileSync(path, 'utf8')) as RuntimeInfo;
  } catch {
    return null;
  }
  if (typeof info?.url !== 'string' || typeof info.pid !== 'number') return null;
  return processAlive(info.pid) ? info : null;
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}
