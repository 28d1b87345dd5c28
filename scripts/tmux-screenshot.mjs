#!/usr/bin/env node
// Makes docs/tmux-status.png and prints the same status line as text: a real tmux server (private socket folder)
// with the plugin's lines, four windows doing real work (a Python statement that raises, a script that asks, tests that pass,
// a server that runs), a person's client attached in a PTY and rendered by @xterm/headless, and the built daemon
// following the server. The client's last rows are drawn into a page and shot by Debian's Chromium
// (playwright-core). Run after `npm run build`: `node scripts/tmux-screenshot.mjs`.
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as pty from 'node-pty';
import xterm from '@xterm/headless';
import { chromium } from 'playwright-core';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const bin = join(root, 'bin', 'termsupervisor');
const dir = mkdtempSync(join(tmpdir(), 'ts-tmux-shot-'));
for (const d of ['tmux', 'run', 'config', 'state']) mkdirSync(join(dir, d), { recursive: true, mode: 0o700 });
const env = { ...process.env, TMUX_TMPDIR: join(dir, 'tmux'), XDG_RUNTIME_DIR: join(dir, 'run'), XDG_CONFIG_HOME: join(dir, 'config'), XDG_STATE_HOME: join(dir, 'state'), TERM: 'xterm-256color', PS1: '$ ' };
delete env.TMUX;
const tmux = (...a) => execFileSync('tmux', ['-L', 'shot', ...a], { env, encoding: 'utf8' });
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const COLS = 110;
const ROWS = 12;
const BASH = "env PS1='$ ' HISTFILE=/dev/null bash --norc --noprofile";

const ask = join(dir, 'deploy.sh');
writeFileSync(ask, 'sleep 1\nread -r -p "Deploy to production? [y/N] " ans\n');
tmux('-f', '/dev/null', 'new-session', '-d', '-s', 'work', '-n', 'home', '-x', String(COLS), '-y', String(ROWS - 1), BASH);
const panes = {};
for (const w of ['build', 'deploy', 'tests', 'server']) panes[w] = tmux('new-window', '-d', '-n', w, '-P', '-F', '#{pane_id}', '-t', 'work:', BASH).trim();
tmux('set', '-g', '@termsupervisor_bin', bin);
tmux('source-file', join(root, 'tmux', 'termsupervisor.conf'));

const term = new xterm.Terminal({ cols: COLS, rows: ROWS, allowProposedApi: true });
const client = pty.spawn('tmux', ['-L', 'shot', 'attach', '-t', 'work:home'], { name: 'xterm-256color', cols: COLS, rows: ROWS, env });
client.onData((d) => term.write(d));
const daemon = spawn(process.execPath, [bin, 'daemon', '--port', '0', '--db', join(dir, 'db.sqlite'), '--tmux-socket', 'shot'], { env, stdio: 'ignore' });
try {
  await sleep(3000);
  const type = (w, line) => {
    tmux('send-keys', '-t', panes[w], '-l', line);
    tmux('send-keys', '-t', panes[w], 'Enter');
  };
  for (const w of Object.keys(panes)) type(w, w === 'build' ? 'python3 -q' : ':');
  await sleep(1500);
  type('build', 'x = 6 * 7');
  await sleep(2500);
  type('build', 'x / 0');
  type('deploy', `bash ${ask}`);
  type('tests', 'sleep 1; echo "42 passed"');
  type('server', 'sleep 600');
  await sleep(8000);
  const buf = term.buffer.active;
  const lines = [];
  for (let y = 0; y < ROWS; y++) lines.push(buf.getLine(y).translateToString(true));
  process.stdout.write(lines.slice(-1).join('\n') + '\n');
  // The rows as HTML: each cell's colours from xterm (palette or RGB), drawn in a dark page.
  const palette = ['#000000', '#cd3131', '#0dbc79', '#e5e510', '#2472c8', '#bc3fbc', '#11a8cd', '#e5e5e5', '#666666', '#f14c4c', '#23d18b', '#f5f543', '#3b8eea', '#d670d6', '#29b8db', '#e5e5e5'];
  const colour = (c, rgb, pal, fallback) => (rgb ? `#${c.toString(16).padStart(6, '0')}` : pal ? (c < 16 ? palette[c] : xterm256(c)) : fallback);
  let html = '';
  const cell = buf.getNullCell();
  for (let y = ROWS - 1; y < ROWS; y++) {
    const line = buf.getLine(y);
    let row = '';
    for (let x = 0; x < COLS; x++) {
      line.getCell(x, cell);
      const ch = cell.getChars() || ' ';
      if (cell.getWidth() === 0) continue;
      let fg = colour(cell.getFgColor(), cell.isFgRGB(), cell.isFgPalette(), '#d4d4d4');
      let bg = colour(cell.getBgColor(), cell.isBgRGB(), cell.isBgPalette(), '#1e1e1e');
      if (cell.isInverse()) [fg, bg] = [bg === '#1e1e1e' ? '#d4d4d4' : bg, fg];
      row += `<span style="color:${fg};background:${bg}">${ch.replace(/&/g, '&amp;').replace(/</g, '&lt;')}</span>`;
    }
    html += `<div>${row}</div>`;
  }
  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu'] });
  const page = await browser.newPage({ viewport: { width: 960, height: 36 }, deviceScaleFactor: 1 });
  await page.setContent(`<body style="margin:0;background:#1e1e1e"><pre style="margin:8px;font:14px/1.35 'DejaVu Sans Mono',monospace;color:#d4d4d4">${html}</pre></body>`);
  await page.screenshot({ path: join(root, 'docs', 'tmux-status.png') });
  await browser.close();
} finally {
  daemon.kill('SIGTERM');
  await sleep(500);
  client.kill();
  try {
    tmux('kill-server');
  } catch {}
  rmSync(dir, { recursive: true, force: true });
}

function xterm256(n) {
  if (n >= 232) {
    const v = 8 + (n - 232) * 10;
    return `rgb(${v},${v},${v})`;
  }
  const i = n - 16;
  const l = [0, 95, 135, 175, 215, 255];
  return `rgb(${l[Math.floor(i / 36)]},${l[Math.floor(i / 6) % 6]},${l[i % 6]})`;
}
