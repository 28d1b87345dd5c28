import pty from 'node-pty';
import { TtyWatch, ttyOf, ioState } from './tty-watch.mjs';
import { readdirSync, readlinkSync, readFileSync } from 'node:fs';
const p = pty.spawn('bash', ['--norc', '-i'], { cols: 80, rows: 24, env: process.env });
let out=''; p.onData(d=>out+=d);
await new Promise(r => setTimeout(r, 300));
const w = new TtyWatch(p.pid, ttyOf(p.pid));
p.write(`python3 -c 'import getpass; getpass.getpass("password: ")'\r`); await new Promise(r => setTimeout(r, 800));
const s = w.sample(Date.now()); console.log(JSON.stringify(s));
for (const pid of w.members) { console.log(pid, readFileSync(`/proc/${pid}/syscall`,'utf8'), readdirSync(`/proc/${pid}/fd`).map(f=>f+'->'+readlinkSync(`/proc/${pid}/fd/${f}`)).join(' ')); }
console.log(JSON.stringify(out.slice(-200)));
p.kill(); process.exit(0);
