// The zoo protocol's timeline: one JSON line per event, {"t": Date.now(), "kind": K, ...}, appended to $ZOO_TIMELINE
// at the moment the agent acts (synchronously, so the file is current whenever the screen is).
import { appendFileSync } from 'node:fs';

export function timeline(path = process.env.ZOO_TIMELINE) {
  return (kind, extra = {}) => {
    if (!path) return;
    appendFileSync(path, JSON.stringify({ t: Date.now(), kind, ...extra }) + '\n');
  };
}
