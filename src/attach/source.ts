// The pane-source interface: anything that can feed a pane's bytes (pty, replay, later tmux and iTerm2).
// Times are seconds on the pane's clock (virtual in replay, wall-clock seconds in live sources).

export type PaneEvent =
  | { kind: 'output'; t: number; data: string | Uint8Array }
  /** Keys the person (or a driver) typed into the pane; Enter arms a turn anchor. */
  | { kind: 'input'; t: number; data: string }
  | { kind: 'resize'; t: number; cols: number; rows: number }
  /** The pane's foreground job changed (process name as the OS reports it, e.g. `sleep`, `node`). */
  | { kind: 'process'; t: number; name: string; pid?: number; names?: string[]; reading?: boolean }
  /** The source started the pane's program as one command and saw it start (`executed`) or end (`finished`, with
   * its exit status): `run`'s one-shot programs (src/analysis/program-kind.ts). Tier 1, like a shell's own marks. */
  | { kind: 'command'; t: number; phase: 'executed' }
  | { kind: 'command'; t: number; phase: 'finished'; exitCode: number }
  | { kind: 'exit'; t: number; code: number | null; signal?: number | null };

export interface PaneSourceInfo {
  /** Stable identity within its source kind (pty: our own counter; tmux: server + pane id). */
  id: string;
  name: string;
  kind: 'pty' | 'replay' | 'tmux' | 'iterm2';
  cols: number;
  rows: number;
  /** The command the pane was started with, when known (used for program detection). */
  command?: string;
}

export type PaneEventListener = (ev: PaneEvent) => void;

export interface PaneSource {
  readonly info: PaneSourceInfo;
  /** Register before start(); events arrive in order. */
  onEvent(listener: PaneEventListener): void;
  start(): Promise<void>;
  /** Type into the pane (only live sources; replay refuses). */
  write?(data: string): void;
  resize?(cols: number, rows: number): void;
  stop(): Promise<void>;
}
