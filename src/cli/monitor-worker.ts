// The `run` wrapper's PaneMonitor, on a worker thread: parsing and analysis never share the thread that passes the
// pane's output to the person's terminal, so no output (a `cat` of escape sequences that take the parser seconds)
// can delay what the person sees. Events arrive in order from the main thread; transitions go back to it.
import { parentPort, workerData } from 'node:worker_threads';
import { PaneMonitor } from '../daemon/pane-monitor.js';
import { RealClock } from '../state/clock.js';
import { configFor } from './load-config.js';
import { loadConfig } from '../config/config.js';
import { describe as describeError } from '../daemon/pane-fault.js';
import type { FromWorker, MonitorStatus, MonitorWorkerData, ToWorker } from './monitor-protocol.js';
import { shownLine } from '../daemon/shown-screen.js';
import { redactText } from '../daemon/redact.js';

/** Parsed characters are reported in batches of at least this many (one message per write would double the cost
 * of a stream of small writes); a flush reports the rest. */
const PARSED_REPORT_CHARS = 64 << 10;
/** The same analysis error is reported to the wrapper (its event log) at most once in this many pane seconds. */
const FAULT_REPORT_REPEAT_S = 60;

const port = parentPort;
if (!port) throw new Error('monitor-worker runs as a worker thread');
const opts = workerData as MonitorWorkerData;
const clock = new RealClock(opts.originMs);
const monitor = new PaneMonitor({ cfg: opts.defaults ? loadConfig({}) : configFor(opts.configPath), clock, cols: opts.cols, rows: opts.rows, agent: opts.agent, command: opts.command, markNonce: opts.markNonce });
const send = (m: FromWorker): void => port.postMessage(m);
const status = (): MonitorStatus => ({ state: monitor.state.state, program: monitor.analyzer.currentProgram.program });
// The wrapper's own event log is text leaving the process like the daemon's: the line masked as the daemon masks
// it (on the logical line of the screen it came from), or the log would hold the key the daemon's copy hides.
monitor.onTransition((tr) => send({ type: 'transition', tr: { ...tr, line: shownLineOf(tr.line) }, ...status() }));
function shownLineOf(line: string): string {
  try {
    return shownLine(monitor.screen, line);
  } catch {
    return redactText(line);
  }
}
send({ type: 'ready', ...status() });
// Caught at the pane (PaneMonitor): the wrapper's event log says so; the pane is still watched.
const faultShown = { key: '', at: -Infinity };
monitor.onFault((f) => {
  const error = describeError(f.error);
  const key = `${f.stage}.${f.step}: ${error}`;
  if (key === faultShown.key && f.t - faultShown.at < FAULT_REPORT_REPEAT_S) return;
  Object.assign(faultShown, { key, at: f.t });
  send({ type: 'fault', fault: { t: f.t, stage: f.stage, step: f.step, program: f.program, error, count: monitor.faults.count } });
});

let unreported = 0;
const report = (): void => {
  if (unreported) send({ type: 'parsed', chars: unreported });
  unreported = 0;
};

/** The screen drawn for a repaint; one that cannot be drawn is the pane's screen fault, and no repaint. */
function drawing(): ReturnType<typeof monitor.screen.drawing> | null {
  try {
    return monitor.screen.drawing();
  } catch (e) {
    monitor.faults.report(e, 'screen', 'repaint');
    return null;
  }
}

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
        send({ type: 'flushed', id: m.id, drawing: m.drawing ? drawing() : null, ...status() });
      });
      break;
    case 'stop':
      monitor.stop();
      port.close();
      break;
  }
});
