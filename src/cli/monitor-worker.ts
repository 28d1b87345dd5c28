// The `run` wrapper's PaneMonitor, on a worker thread: parsing and analysis never share the thread that passes the
// pane's output to the person's terminal, so no output (a `cat` of escape sequences that take the parser seconds)
// can delay what the person sees. Events arrive in order from the main thread; transitions go back to it.
import { parentPort, workerData } from 'node:worker_threads';
import { PaneMonitor } from '../daemon/pane-monitor.js';
import { RealClock } from '../state/clock.js';
import { configFor } from './load-config.js';
import type { FromWorker, MonitorStatus, MonitorWorkerData, ToWorker } from './monitor-protocol.js';

/** Parsed characters are reported in batches of at least this many (one message per write would double the cost
 * of a stream of small writes); a flush reports the rest. */
const PARSED_REPORT_CHARS = 64 << 10;

const port = parentPort;
if (!port) throw new Error('monitor-worker runs as a worker thread');
const opts = workerData as MonitorWorkerData;
const clock = new RealClock(opts.originMs);
const monitor = new PaneMonitor({ cfg: configFor(opts.configPath), clock, cols: opts.cols, rows: opts.rows, agent: opts.agent, command: opts.command, markNonce: opts.markNonce });
const send = (m: FromWorker): void => port.postMessage(m);
const status = (): MonitorStatus => ({ state: monitor.state.state, program: monitor.analyzer.currentProgram.program });
monitor.onTransition((tr) => send({ type: 'transition', tr, ...status() }));
send({ type: 'ready', ...status() });

let unreported = 0;
const report = (): void => {
  if (unreported) send({ type: 'parsed', chars: unreported });
  unreported = 0;
};

port.on('message', (m: ToWorker) => {
  switch (m.type) {
    case 'event': {
      const ev = m.ev;
      monitor.handle(ev);
      if (ev.kind === 'output') {
        // Counted once the terminal has parsed it (writes complete in order).
        const n = ev.data.length;
        monitor.screen.write('', () => {
          unreported += n;
          if (unreported >= PARSED_REPORT_CHARS) report();
        });
      }
      break;
    }
    case 'flush':
      void monitor.flush().then(() => {
        report();
        send({ type: 'flushed', id: m.id, drawing: m.drawing ? monitor.screen.drawing() : null, ...status() });
      });
      break;
    case 'stop':
      monitor.stop();
      port.close();
      break;
  }
});
