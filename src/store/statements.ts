// The SQL the store runs, prepared once, and the mapping between records and rows.
import type Database from 'better-sqlite3';
import type { ActionRecord, Counters, PaneRecord, TransitionRecord, TurnRecord } from './records.js';
import type { QueuedWrite } from './write-queue.js';

interface PaneRow {
  id: string;
  name: string;
  program: string;
  attach: string;
  command: string;
  cols: number;
  rows: number;
  created_at: number;
  last_seen_at: number;
  closed_at: number | null;
  state: string;
  since: number;
  started_at: number;
  tier: number;
  source: string;
  rule: string;
  line: string;
  stalled: number;
  host: string | null;
}

interface TransitionRow {
  pane_id: string;
  at: number;
  from_state: string;
  to_state: string;
  tier: number;
  source: string;
  rule: string;
  line: string;
  stalled: number;
  started_at: number;
  started_at_kept: number;
}

interface TurnRow {
  pane_id: string;
  start: number;
  end: number | null;
  duration_s: number | null;
  result: string | null;
  prompt: string | null;
}

interface ActionRow {
  pane_id: string;
  at: number;
  kind: string;
  origin: string;
  from_addr: string;
  keys: string;
  detail: string;
  rev: number | null;
}

const ACTION_COLS = ['pane_id', 'at', 'kind', 'origin', 'from_addr', 'keys', 'detail', 'rev'];

function actionRow(a: ActionRecord): ActionRow {
  return { pane_id: a.paneId, at: a.at, kind: a.kind, origin: a.origin, from_addr: a.from, keys: a.keys, detail: a.detail, rev: a.rev };
}

function actionRecord(r: ActionRow): ActionRecord {
  return {
    paneId: r.pane_id, at: r.at, kind: r.kind as ActionRecord['kind'], origin: r.origin as ActionRecord['origin'],
    from: r.from_addr, keys: r.keys, detail: r.detail, rev: r.rev,
  };
}

const PANE_COLS = [
  'id', 'name', 'program', 'attach', 'command', 'cols', 'rows', 'created_at', 'last_seen_at', 'closed_at',
  'state', 'since', 'started_at', 'tier', 'source', 'rule', 'line', 'stalled', 'host',
];
const TRANSITION_COLS = [
  'pane_id', 'at', 'from_state', 'to_state', 'tier', 'source', 'rule', 'line', 'stalled', 'started_at',
  'started_at_kept',
];

const bit = (b: boolean): number => (b ? 1 : 0);

export function paneRow(p: PaneRecord): PaneRow {
  return {
    id: p.id, name: p.name, program: p.program, attach: p.attach, command: p.command, cols: p.cols, rows: p.rows,
    created_at: p.createdAt, last_seen_at: p.lastSeenAt, closed_at: p.closedAt, state: p.state, since: p.since,
    started_at: p.startedAt, tier: p.tier, source: p.source, rule: p.rule, line: p.line, stalled: bit(p.stalled),
    host: p.host ?? null,
  };
}

export function paneRecord(r: PaneRow): PaneRecord {
  return {
    id: r.id, name: r.name, program: r.program, attach: r.attach as PaneRecord['attach'], command: r.command,
    cols: r.cols, rows: r.rows, createdAt: r.created_at, lastSeenAt: r.last_seen_at, closedAt: r.closed_at,
    state: r.state as PaneRecord['state'], since: r.since, startedAt: r.started_at, tier: r.tier as PaneRecord['tier'],
    source: r.source as PaneRecord['source'], rule: r.rule, line: r.line, stalled: r.stalled !== 0,
    ...(r.host !== null && { host: r.host }),
  };
}

function transitionRow(t: TransitionRecord): TransitionRow {
  return {
    pane_id: t.paneId, at: t.at, from_state: t.from, to_state: t.to, tier: t.tier, source: t.source, rule: t.rule,
    line: t.line, stalled: bit(t.stalled), started_at: t.startedAt, started_at_kept: bit(t.startedAtKept),
  };
}

function transitionRecord(r: TransitionRow): TransitionRecord {
  return {
    paneId: r.pane_id, at: r.at, from: r.from_state as TransitionRecord['from'], to: r.to_state as TransitionRecord['to'],
    tier: r.tier as TransitionRecord['tier'], source: r.source as TransitionRecord['source'], rule: r.rule,
    line: r.line, stalled: r.stalled !== 0, startedAt: r.started_at, startedAtKept: r.started_at_kept !== 0,
  };
}

function turnRow(t: TurnRecord): TurnRow {
  return { pane_id: t.paneId, start: t.start, end: t.end, duration_s: t.durationS, result: t.result, prompt: t.prompt };
}

function turnRecord(r: TurnRow): TurnRecord {
  return {
    paneId: r.pane_id, start: r.start, end: r.end, durationS: r.duration_s, result: r.result as TurnRecord['result'],
    prompt: r.prompt,
  };
}

const params = (cols: string[]): string => cols.map((c) => `@${c}`).join(', ');

export class Statements {
  private readonly upsertPane;
  private readonly insertTransition;
  private readonly upsertTurn;
  private readonly addCounter;
  private readonly selectPanes;
  private readonly selectPane;
  private readonly selectTransitions;
  private readonly selectTurns;
  private readonly selectCounters;
  private readonly insertAction;
  private readonly selectActions;

  constructor(db: Database.Database) {
    const paneSet = PANE_COLS.filter((c) => c !== 'id').map((c) => `${c} = excluded.${c}`).join(', ');
    this.upsertPane = db.prepare<PaneRow>(
      `INSERT INTO panes (${PANE_COLS.join(', ')}) VALUES (${params(PANE_COLS)}) ON CONFLICT (id) DO UPDATE SET ${paneSet}`,
    );
    this.insertTransition = db.prepare<TransitionRow>(
      `INSERT INTO transitions (${TRANSITION_COLS.join(', ')}) VALUES (${params(TRANSITION_COLS)})`,
    );
    this.upsertTurn = db.prepare<TurnRow>(
      `INSERT INTO turns (pane_id, start, "end", duration_s, result, prompt)
       VALUES (@pane_id, @start, @end, @duration_s, @result, @prompt)
       ON CONFLICT (pane_id, start) DO UPDATE SET "end" = excluded."end", duration_s = excluded.duration_s,
         result = excluded.result, prompt = excluded.prompt`,
    );
    this.addCounter = db.prepare<[string, number]>(
      'INSERT INTO counters (key, count) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET count = count + excluded.count',
    );
    this.selectPanes = db.prepare<[], PaneRow>('SELECT * FROM panes ORDER BY created_at, id');
    this.selectPane = db.prepare<[string], PaneRow>('SELECT * FROM panes WHERE id = ?');
    this.selectTransitions = db.prepare<[string, number], TransitionRow>(
      'SELECT * FROM transitions WHERE pane_id = ? ORDER BY at DESC, id DESC LIMIT ?',
    );
    this.selectTurns = db.prepare<[string, number], TurnRow>(
      'SELECT * FROM turns WHERE pane_id = ? ORDER BY start DESC LIMIT ?',
    );
    this.selectCounters = db.prepare<[], { key: string; count: number }>('SELECT key, count FROM counters ORDER BY key');
    this.insertAction = db.prepare<ActionRow>(`INSERT INTO actions (${ACTION_COLS.join(', ')}) VALUES (${params(ACTION_COLS)})`);
    this.selectActions = db.prepare<[string, number], ActionRow>(
      'SELECT * FROM actions WHERE pane_id = ? ORDER BY at DESC, id DESC LIMIT ?',
    );
  }

  write(w: QueuedWrite): void {
    switch (w.kind) {
      case 'pane':
        this.upsertPane.run(paneRow(w.rec));
        return;
      case 'transition':
        this.insertTransition.run(transitionRow(w.rec));
        return;
      case 'turn':
        this.upsertTurn.run(turnRow(w.rec));
        return;
      case 'counter':
        this.addCounter.run(w.key, w.delta);
        return;
      case 'action':
        this.insertAction.run(actionRow(w.rec));
        return;
    }
  }

  panes(): PaneRecord[] {
    return this.selectPanes.all().map(paneRecord);
  }

  pane(id: string): PaneRecord | undefined {
    const r = this.selectPane.get(id);
    return r && paneRecord(r);
  }

  transitions(paneId: string, limit: number): TransitionRecord[] {
    return this.selectTransitions.all(paneId, limit).map(transitionRecord);
  }

  turns(paneId: string, limit: number): TurnRecord[] {
    return this.selectTurns.all(paneId, limit).map(turnRecord);
  }

  actions(paneId: string, limit: number): ActionRecord[] {
    return this.selectActions.all(paneId, limit).map(actionRecord);
  }

  counters(): Counters {
    const out: Counters = {};
    for (const r of this.selectCounters.all()) out[r.key] = r.count;
    return out;
  }
}
