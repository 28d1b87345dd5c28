// The hostile bench's figures (hostile-load.ts): per storm, the other panes' transition delays, /healthz of the
// daemon and of the control server, the event-loop delay; RSS a rest after the storms; the wrapper's exit.
import { percentile } from './daemon-report.js';
import type { HostileResult, StormResult } from './hostile-load.js';
import { STORM_TEXT } from './hostile-storms.js';
import { round } from './report.js';

/** The issue's targets: other panes' transitions and /healthz p99 while a pane storms (ms)... */
export const HOSTILE_TARGET_P99_MS = 100;
/** ...the daemon's RSS a minute after the storms, against its start... */
export const RSS_RETURN_RATIO = 1.2;
/** ...and the wrapper's exit after its program's (ms). */
export const WRAPPER_EXIT_TARGET_MS = 500;

const p = (xs: number[], q: number) => round(percentile(xs, q), 1);
const mb = (kb: number) => round(kb / 1024, 1);

function stormLine(s: StormResult): string {
  const what = s.joined ? `${s.joined.panes} panes joined in ${round(s.joined.ms, 0)} ms` : `${round(s.bytes / (1 << 20), 1)} MB sent`;
  return [
    `  ${s.storm}: ${STORM_TEXT[s.storm]} (${what})`,
    `    other panes' transitions → /ws: p50 ${p(s.transitions, 50)} ms, p99 ${p(s.transitions, 99)} ms, max ${p(s.transitions, 100)} ms (${s.transitions.length})`,
    `    /healthz: p99 ${p(s.health, 99)} ms, max ${p(s.health, 100)} ms (${s.health.length}); control server: p99 ${p(s.control, 99)} ms, max ${p(s.control, 100)} ms (${s.control.length})`,
    s.loop ? `    daemon event-loop delay: p99 ${round(s.loop.p99Ms, 1)} ms, max ${round(s.loop.maxMs, 1)} ms` : '    daemon event-loop delay: not measured',
  ].join('\n');
}

function wrapperText(w: HostileResult['wrapperWithDaemon']): string {
  return w ? `${round(w.exitAfterMs, 0)} ms after its program (which ran ${round(w.programMs / 1000, 1)} s)` : 'not measured';
}

export function hostileLines(r: HostileResult): string {
  return [
    `hostile${r.control ? ' (control: storm panes silent)' : ''}: ${r.panes} panes replaying the corpus, one ${r.seconds} s storm after another in a pane of its own; targets: p99 < ${HOSTILE_TARGET_P99_MS} ms, RSS within ${Math.round((RSS_RETURN_RATIO - 1) * 100)}%, wrapper exit < ${WRAPPER_EXIT_TARGET_MS} ms`,
    ...r.storms.map(stormLine),
    `  daemon RSS: ${mb(r.rssStartKb)} MB at start, ${mb(r.rssPeakKb)} MB peak (read after each storm), ${mb(r.rssAfterKb)} MB ${r.restSeconds} s after the last storm (×${round(r.rssAfterKb / r.rssStartKb, 2)}); /healthz failures ${r.healthFailures}`,
    r.heapAfter ? `    then its V8 heap: ${round(r.heapAfter.usedMb, 1)} MB in use of ${round(r.heapAfter.totalMb, 1)} MB; external ${round(r.heapAfter.externalMb, 1)} MB` : '    then its V8 heap: not read',
    `  run wrapper on 10 MB of scroll pairs: with the daemon ${wrapperText(r.wrapperWithDaemon)}; alone ${wrapperText(r.wrapperAlone)}`,
  ].join('\n');
}

export function hostileJson(r: HostileResult): Record<string, number | boolean | null> {
  const num = (x: number) => (Number.isFinite(x) ? round(x, 1) : null);
  const out: Record<string, number | boolean | null> = { hostile_control: r.control, hostile_panes: r.panes, hostile_seconds: r.seconds };
  let meets = true;
  for (const s of r.storms) {
    const k = `hostile_${s.storm}`;
    const tp99 = percentile(s.transitions, 99);
    const hp99 = percentile(s.health, 99);
    out[`${k}_transition_p99_ms`] = num(tp99);
    out[`${k}_transition_max_ms`] = num(percentile(s.transitions, 100));
    out[`${k}_healthz_p99_ms`] = num(hp99);
    out[`${k}_healthz_max_ms`] = num(percentile(s.health, 100));
    out[`${k}_control_p99_ms`] = num(percentile(s.control, 99));
    out[`${k}_loop_delay_max_ms`] = s.loop ? num(s.loop.maxMs) : null;
    if (s.joined) out[`${k}_joined_ms`] = num(s.joined.ms);
    meets &&= s.transitions.length > 0 && tp99 < HOSTILE_TARGET_P99_MS && hp99 < HOSTILE_TARGET_P99_MS;
  }
  out['hostile_rss_start_mb'] = mb(r.rssStartKb);
  out['hostile_rss_peak_mb'] = mb(r.rssPeakKb);
  out['hostile_rss_after_mb'] = mb(r.rssAfterKb);
  out['hostile_wrapper_exit_daemon_ms'] = r.wrapperWithDaemon ? num(r.wrapperWithDaemon.exitAfterMs) : null;
  out['hostile_wrapper_exit_alone_ms'] = r.wrapperAlone ? num(r.wrapperAlone.exitAfterMs) : null;
  meets &&= r.rssAfterKb <= r.rssStartKb * RSS_RETURN_RATIO;
  for (const w of [r.wrapperWithDaemon, r.wrapperAlone]) if (w) meets &&= w.exitAfterMs < WRAPPER_EXIT_TARGET_MS;
  out['hostile_meets_target'] = meets;
  return out;
}
