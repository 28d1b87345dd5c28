// One storm pane of the hostile bench, in a process of its own: `node storm-child.js URL TOKEN ID STORM SECONDS
// SEED [--silent]`. It opens a pane link, then sends the storm's chunks for SECONDS, each parsed first in a
// PaneScreen here (as the `run` wrapper paces its pty by its own parse), and prints the bytes it sent as JSON. In
// the bench's own process that parse held the event loop that timestamps the other panes' transitions, which then
// looked seconds late (a title storm's p99 read 9.8 s with the daemon's own loop delay at 0.3 s).
import { WebSocket } from 'ws';
import { LINK_PROTOCOL_VERSION, type LinkHello } from '../attach/link-protocol.js';
import { PaneScreen } from '../screen/pane-screen.js';
import { stormChunks, type Storm } from './hostile-storms.js';

/** A storm pane's size: large, so each whole-screen sequence costs what a big terminal's would. */
const STORM_COLS = 200;
const STORM_ROWS = 60;
/** The wrapper's bound on output unsent to its daemon (daemon-link.ts MAX_UNSENT_BYTES). */
const MAX_UNSENT_BYTES = 8 << 20;

async function main(): Promise<void> {
  const [url, token, id, storm, seconds, seed] = process.argv.slice(2);
  const silent = process.argv.includes('--silent');
  const ws = new WebSocket(url!.replace(/^http/, 'ws') + '/api/pane-link', { headers: { authorization: `Bearer ${token}` } });
  await new Promise<void>((resolve, reject) => {
    ws.on('open', () => {
      const command = storm === 'marks' ? 'cat marks.txt' : `cat ${storm}.bin`;
      const hello: LinkHello = { type: 'hello', v: LINK_PROTOCOL_VERSION, id: id!, name: id!, agent: 'auto', command, cols: STORM_COLS, rows: STORM_ROWS };
      ws.send(JSON.stringify(hello));
    });
    ws.on('message', (data) => {
      if (String(data).includes('"welcome"')) resolve();
    });
    ws.on('error', reject);
  });
  process.stdout.write('ready\n');
  let sent = 0;
  const until = Date.now() + Number(seconds) * 1000;
  if (!silent) {
    const next = stormChunks(storm as Exclude<Storm, 'joins'>, Number(seed));
    const screen = new PaneScreen({ cols: STORM_COLS, rows: STORM_ROWS });
    while (Date.now() < until && ws.readyState === ws.OPEN) {
      const chunk = next();
      await new Promise<void>((r) => screen.write(chunk, r));
      // As the wrapper's link does (daemon-link.ts): output for a daemon this far behind is dropped, not queued.
      if (ws.bufferedAmount > MAX_UNSENT_BYTES) continue;
      ws.send(JSON.stringify({ type: 'output', data: chunk }));
      sent += chunk.length;
    }
    screen.dispose();
  } else await new Promise((r) => setTimeout(r, until - Date.now()));
  process.stdout.write(JSON.stringify({ sent }) + '\n');
  ws.terminate();
  process.exit(0);
}

void main().catch((e: unknown) => {
  process.stderr.write(`storm-child: ${String(e)}\n`);
  process.exit(1);
});
