// The daemon's secret: created once, kept owner-only under the XDG config dir, read by local clients (`run`,
// `termsupervisor dashboard`) that belong to the same user.
import { randomBytes } from 'node:crypto';
import { chmodSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { configDir } from '../config/paths.js';

/** 32 random bytes: not guessable, short enough to paste. */
const TOKEN_BYTES = 32;
const TOKEN_SHAPE = /^[A-Za-z0-9_-]{32,128}$/;

export function tokenPath(env: NodeJS.ProcessEnv = process.env): string {
  return join(configDir(env), 'token');
}

/** Reads the token, or null when none exists yet (or the file is not one of ours). */
export function readToken(path = tokenPath()): string | null {
  try {
    const t = readFileSync(path, 'utf8').trim();
    return TOKEN_SHAPE.test(t) ? t : null;
  } catch {
    return null;
  }
}

/** The token, created on first start (0600, folder 0700). A file readable by others is tightened. */
export function loadOrCreateToken(path = tokenPath()): string {
  const existing = readToken(path);
  if (existing) {
    if ((statSync(path).mode & 0o077) !== 0) chmodSync(path, 0o600);
    return existing;
  }
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  const token = randomBytes(TOKEN_BYTES).toString('base64url');
  writeFileSync(path, token + '\n', { mode: 0o600 });
  chmodSync(path, 0o600);
  return token;
}
