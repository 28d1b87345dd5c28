// Truth events of an agent recording (driver keys, backend clock) -> segments in the shared corpus FORMAT.
import { segments } from '../truth.mjs';

/**
 * A turn that ends while a prompt the person queued is waiting, and is followed by that prompt's request with no key
 * from the driver in between, is not a finish: the CLI sent the queued prompt by itself. Marks such turn ends
 * (`followed_by_queued`) in place.
 */
export function markQueuedFollowUps(events) {
  const sorted = [...events].sort((a, b) => a.t - b.t);
  let queued = 0;
  for (let i = 0; i < sorted.length; i++) {
    const e = sorted[i];
    if (e.kind === 'prompt_queued') queued++;
    if (e.kind !== 'turn_complete' || queued === 0) continue;
    const next = sorted.slice(i + 1).find((x) => x.kind === 'prompt_submitted' || (x.kind === 'backend_request' && !x.after));
    if (next?.kind === 'backend_request') {
      e.followed_by_queued = true;
      queued--;
    }
  }
  return events;
}

/**
 * An HTTP error the backend answered is the turn's failure when no request of the same turn came after it (the
 * CLI's own retries are requests that come after it). Marks those (`gave_up`) in place.
 */
export function markGivenUpErrors(events) {
  const sorted = [...events].sort((a, b) => a.t - b.t);
  for (let i = 0; i < sorted.length; i++) {
    if (sorted[i].kind !== 'api_error') continue;
    const next = sorted.slice(i + 1).find((x) => x.kind === 'prompt_submitted' || x.kind === 'backend_request');
    if (!next || next.kind === 'prompt_submitted') sorted[i].gave_up = true;
  }
  return events;
}

export function agentSegments(events, duration) {
  markQueuedFollowUps(events);
  markGivenUpErrors(events);
  const mapped = [];
  for (const e of events) {
    switch (e.kind) {
      case 'prompt_submitted':
      case 'approval_requested':
      case 'approval_given':
        mapped.push(e);
        break;
      case 'approval_dismissed': {
        // A CLI that tells the model about the refusal goes on working (its next request follows with no prompt
        // between): the turn runs on until the backend's final answer. Otherwise the turn ended at the key.
        const next = events.filter((x) => x.t > e.t && (x.kind === 'prompt_submitted' || x.kind === 'backend_request')).sort((a, b) => a.t - b.t)[0];
        mapped.push({ t: e.t, kind: next?.kind === 'backend_request' ? 'approval_given' : 'turn_complete' });
        break;
      }
      case 'turn_interrupted':
        mapped.push({ t: e.t, kind: 'turn_complete', note: 'interrupted by the person' });
        break;
      case 'turn_complete':
        if (!e.followed_by_queued) mapped.push(e);
        break;
      case 'api_error':
        if (e.gave_up) mapped.push({ t: e.t, kind: 'turn_failed', note: `HTTP ${e.status}: the CLI gave up` });
        break;
      case 'cli_command':
        // `/quit`: the session is over; nothing is running and nothing new finished.
        if (e.ends) mapped.push({ t: e.t, kind: 'program_at_rest', note: 'the person quit the CLI' });
        break;
      default:
        break;
    }
  }
  return segments(mapped, duration);
}
