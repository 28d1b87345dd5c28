// Retention: history older than the cutoff goes, and so do panes closed before it, with all they left behind.
import type Database from 'better-sqlite3';

export interface Pruned {
  transitions: number;
  actions: number;
  turns: number;
  panes: number;
}

export const DAY_MS = 86_400_000;

export function pruneBefore(db: Database.Database, cutoff: number): Pruned {
  return db.transaction((): Pruned => {
    const closed = "SELECT id FROM panes WHERE closed_at IS NOT NULL AND closed_at < @cutoff";
    const ofClosed = db.prepare(`DELETE FROM transitions WHERE pane_id IN (${closed}) OR at < @cutoff`).run({ cutoff });
    // an open turn is kept whatever its age, unless its pane is gone
    const turns = db
      .prepare(`DELETE FROM turns WHERE pane_id IN (${closed}) OR ("end" IS NOT NULL AND "end" < @cutoff)`)
      .run({ cutoff });
    // actions go with their pane, or with age, as transitions do
    const actions = db.prepare(`DELETE FROM actions WHERE pane_id IN (${closed}) OR at < @cutoff`).run({ cutoff });
    const panes = db.prepare('DELETE FROM panes WHERE closed_at IS NOT NULL AND closed_at < @cutoff').run({ cutoff });
    return { transitions: ofClosed.changes, actions: actions.changes, turns: turns.changes, panes: panes.changes };
  }).immediate();
}
