// The schema, as numbered steps. A database records the last step applied in PRAGMA user_version; each step runs
// once, in its own transaction. Never edit a released step: add a new one.

export interface Migration {
  version: number;
  name: string;
  sql: string;
}

/** Marks a database as termsupervisor's (PRAGMA application_id, "TSUP"), so a foreign SQLite file is refused. */
export const APPLICATION_ID = 0x54535550;

export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: 'panes, transitions, turns, counters, meta',
    // No foreign keys from history to panes: a transition must never be lost because its pane row was not
    // written first (or was dropped from a full queue); prune removes a closed pane's history itself.
    sql: `
      PRAGMA application_id = ${APPLICATION_ID};
      CREATE TABLE panes (
        id TEXT PRIMARY KEY,
        name TEXT NOT NULL,
        program TEXT NOT NULL,
        attach TEXT NOT NULL,
        command TEXT NOT NULL,
        cols INTEGER NOT NULL,
        rows INTEGER NOT NULL,
        created_at INTEGER NOT NULL,
        last_seen_at INTEGER NOT NULL,
        closed_at INTEGER,
        state TEXT NOT NULL,
        since INTEGER NOT NULL,
        started_at INTEGER NOT NULL,
        tier INTEGER NOT NULL,
        source TEXT NOT NULL,
        rule TEXT NOT NULL,
        line TEXT NOT NULL,
        stalled INTEGER NOT NULL
      );
      CREATE TABLE transitions (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        pane_id TEXT NOT NULL,
        at INTEGER NOT NULL,
        from_state TEXT NOT NULL,
        to_state TEXT NOT NULL,
        tier INTEGER NOT NULL,
        source TEXT NOT NULL,
        rule TEXT NOT NULL,
        line TEXT NOT NULL,
        stalled INTEGER NOT NULL,
        started_at INTEGER NOT NULL,
        started_at_kept INTEGER NOT NULL
      );
      CREATE INDEX transitions_pane_at ON transitions (pane_id, at);
      CREATE INDEX transitions_at ON transitions (at);
      CREATE TABLE turns (
        pane_id TEXT NOT NULL,
        start INTEGER NOT NULL,
        "end" INTEGER,
        duration_s REAL,
        result TEXT,
        prompt TEXT,
        UNIQUE (pane_id, start)
      );
      CREATE TABLE counters (
        key TEXT PRIMARY KEY,
        count INTEGER NOT NULL
      );
      CREATE TABLE meta (
        key TEXT PRIMARY KEY,
        value TEXT NOT NULL
      );
    `,
  },
  {
    version: 2,
    name: 'supervised tasks, their iterations and timelines',
    // A task's full record is one JSON document (it changes shape with the loop); the columns beside it are the
    // ones listed or filtered on.
    sql: `
      CREATE TABLE tasks (
        id TEXT PRIMARY KEY,
        pane_id TEXT NOT NULL,
        status TEXT NOT NULL,
        created_at INTEGER NOT NULL,
        updated_at INTEGER NOT NULL,
        ended_at INTEGER,
        data TEXT NOT NULL
      );
      CREATE INDEX tasks_pane ON tasks (pane_id, created_at);
      CREATE INDEX tasks_status ON tasks (status);
      CREATE TABLE task_iterations (
        task_id TEXT NOT NULL,
        n INTEGER NOT NULL,
        data TEXT NOT NULL,
        PRIMARY KEY (task_id, n)
      );
      CREATE TABLE task_events (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        task_id TEXT NOT NULL,
        at INTEGER NOT NULL,
        kind TEXT NOT NULL,
        detail TEXT NOT NULL
      );
      CREATE INDEX task_events_task ON task_events (task_id, id);
    `,
  },
  {
    version: 3,
    name: 'actions: keys typed into panes, acks and jumps, with who and from where',
    sql: `
      CREATE TABLE actions (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        pane_id TEXT NOT NULL,
        at INTEGER NOT NULL,
        kind TEXT NOT NULL,
        origin TEXT NOT NULL,
        from_addr TEXT NOT NULL,
        keys TEXT NOT NULL,
        detail TEXT NOT NULL,
        rev INTEGER
      );
      CREATE INDEX actions_pane_at ON actions (pane_id, at);
      CREATE INDEX actions_at ON actions (at);
    `,
  },
  {
    version: 4,
    name: 'panes.host: the machine a pane runs on (a remote or a peer daemon; NULL for this one)',
    sql: `
      ALTER TABLE panes ADD COLUMN host TEXT;
    `,
  },
  {
    version: 5,
    name: 'notify_pending: urgent notifications held back or not yet delivered, kept across a restart',
    // The whole notice is one JSON document (the event and what is still owed); id and created_at are what the
    // bounds (notify-pending.ts) prune on.
    sql: `
      CREATE TABLE notify_pending (
        id TEXT PRIMARY KEY,
        pane_id TEXT NOT NULL,
        created_at INTEGER NOT NULL,
        data TEXT NOT NULL
      );
      CREATE INDEX notify_pending_created ON notify_pending (created_at);
    `,
  },
];

/** The newest schema this build knows. */
export const LATEST_VERSION = MIGRATIONS.reduce((v, m) => Math.max(v, m.version), 0);
