// Truth events -> segments in the shared corpus FORMAT. Every event comes from the driver's clock (what it typed)
// or the program's (side channel, /proc): never from the screen.

/** The state an event puts the pane in (null: informative only). */
function stateOf(e) {
  switch (e.kind) {
    case 'prompt_submitted':
    case 'approval_given':
    case 'keys_sent':
      return e.starts === false ? null : { state: 'RUNNING' };
    case 'approval_requested':
      return { state: 'WAITING_APPROVAL' };
    case 'program_at_rest':
      return { state: 'IDLE', note: e.note ?? 'program blocked reading the terminal: at rest' };
    case 'continuation_prompt':
      return { state: 'IDLE', note: 'continuation prompt: the statement is incomplete, the REPL waits for more input' };
    case 'turn_complete':
      return { state: 'DONE' };
    case 'turn_failed':
      return { state: 'FAILED', note: e.note ?? `exit ${e.exit}` };
    default:
      return null;
  }
}

export function segments(events, duration) {
  const segs = [{ start: 0, end: duration, state: 'IDLE' }];
  for (const e of [...events].sort((a, b) => a.t - b.t)) {
    const s = stateOf(e);
    if (!s) continue;
    const last = segs[segs.length - 1];
    if (last.state === s.state && (last.note ?? null) === (s.note ?? null)) continue;
    if (e.t <= last.start) {
      // two changes at the same instant: the later one wins (and may make the one before it go on)
      Object.assign(last, { state: s.state, note: s.note });
      if (!s.note) delete last.note;
      const before = segs[segs.length - 2];
      if (before && before.state === last.state && (before.note ?? null) === (last.note ?? null)) segs.pop();
      continue;
    }
    last.end = e.t;
    segs.push({ start: e.t, end: duration, state: s.state, ...(s.note ? { note: s.note } : {}) });
  }
  for (const s of segs) {
    s.start = round(s.start);
    s.end = round(s.end);
  }
  return segs;
}

export function round(t) {
  return Math.round(t * 1000) / 1000;
}
