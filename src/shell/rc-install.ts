// `shell-integration --install`: puts the snippet into the person's rc file once. The block between our marker
// lines is ours: absent, it is appended; present and current, nothing changes; present but older, it is replaced
// in place. The rc file as it was is backed up first (src/config/write-with-backup.ts).
import { homedir } from 'node:os';
import { join } from 'node:path';
import { readOrNull, writeWithBackup } from '../config/write-with-backup.js';
import { BEGIN_MARK, END_MARK, snippet, type Shell } from './snippets.js';

/** A new rc file gets the usual mode of one (the person's shell reads it; nothing secret in it). */
const NEW_RC_MODE = 0o644;

/** The rc file each shell reads for an interactive session. */
export function defaultRcFile(shell: Shell, env: NodeJS.ProcessEnv = process.env): string {
  const home = env['HOME'] || homedir();
  if (shell === 'bash') return join(home, '.bashrc');
  if (shell === 'zsh') return join(env['ZDOTDIR'] || home, '.zshrc');
  return join(env['XDG_CONFIG_HOME'] || join(home, '.config'), 'fish', 'config.fish');
}

export type RcEdit = { status: 'unchanged' } | { status: 'changed'; text: string; how: 'appended' | 'replaced' };

/** The rc file's new text (pure). `before` null: no file yet. A begin mark without its end is refused. */
export function editRc(before: string | null, block: string): RcEdit | { status: 'refused'; reason: string } {
  const text = before ?? '';
  const begin = text.indexOf(BEGIN_MARK);
  if (begin < 0) {
    const sep = text === '' ? '' : text.endsWith('\n') ? '\n' : '\n\n';
    return { status: 'changed', how: 'appended', text: text + sep + block };
  }
  const endAt = text.indexOf(END_MARK, begin);
  if (endAt < 0) return { status: 'refused', reason: `it has the line "${BEGIN_MARK}" but not "${END_MARK}": fix or remove the block by hand` };
  let end = endAt + END_MARK.length;
  if (text[end] === '\n') end++;
  if (text.slice(begin, end) === block) return { status: 'unchanged' };
  return { status: 'changed', how: 'replaced', text: text.slice(0, begin) + block + text.slice(end) };
}

export interface RcInstallResult {
  file: string;
  status: 'unchanged' | 'appended' | 'replaced' | 'refused';
  backup: string | null;
  reason?: string;
}

export function installInRc(shell: Shell, file: string, now = new Date()): RcInstallResult {
  const before = readOrNull(file);
  const edit = editRc(before, snippet(shell));
  if (edit.status === 'refused') return { file, status: 'refused', backup: null, reason: edit.reason };
  if (edit.status === 'unchanged') return { file, status: 'unchanged', backup: null };
  const { backup } = writeWithBackup(file, before, edit.text, now, NEW_RC_MODE);
  return { file, status: edit.how, backup };
}
