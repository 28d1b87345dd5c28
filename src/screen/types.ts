// Plain data types the screen stage hands downstream. No IO, no xterm: analysis/ imports these.

/** An in-band signal parsed out of the byte stream (shell integration, agent OSCs, title, bell, modes). */
export type InBandSignal =
  // Shell integration marks. `nonce`: the token the mark carried (`nonce=` option; 633 E's last field), which a
  // shell we started with integration puts on every mark it makes (src/shell/inject.ts).
  | { kind: 'prompt-start'; protocol: 'osc133' | 'osc633'; nonce?: string }
  | { kind: 'command-input'; protocol: 'osc133' | 'osc633'; nonce?: string }
  /** `run`: the wrapper's own program started as one command; its end always comes (it sees the exit). */
  | { kind: 'command-executed'; protocol: 'osc133' | 'osc633' | 'run'; nonce?: string }
  /** exitCode undefined = the prompt came back with no command run (D without a code). */
  | { kind: 'command-finished'; protocol: 'osc133' | 'osc633' | 'run'; exitCode: number | undefined; nonce?: string }
  | { kind: 'command-line'; protocol: 'osc633'; commandLine: string; nonce?: string }
  | { kind: 'user-var'; name: string; value: string }
  | { kind: 'cwd'; path: string }
  /** Codex CLI OSC 7501: state=working|blocked|done|error|idle plus key=value extras. */
  | { kind: 'agent-state'; protocol: 'osc7501'; state: string; extra: Record<string, string> }
  | { kind: 'notification'; protocol: 'osc9' | 'osc777'; title: string; body: string }
  /** An agent's own hook (Claude Code / Gemini CLI hooks, Codex notify), delivered out of band by the daemon:
   * `event` is the agent's name for it (Stop, AfterAgent, agent-turn-complete), `detail` its sub-kind
   * (notification_type, source, reason) or ''; `session` the agent's session or thread id, `input` what a Codex
   * request was asked (both '' or absent when unknown). Never parsed from the byte stream. */
  | { kind: 'hook'; agent: 'claude' | 'codex' | 'gemini' | 'qwen' | 'opencode' | 'kilo'; event: string; detail: string; session?: string; input?: string }
  | { kind: 'title'; title: string }
  | { kind: 'bell' }
  | { kind: 'bracketed-paste'; on: boolean }
  | { kind: 'alt-screen'; on: boolean };

/** A signal stamped with the pane-clock time of the chunk that carried it and the cursor line then. */
export interface TimedSignal {
  t: number;
  signal: InBandSignal;
  line: string;
}

/** What the headless terminal shows at one moment. */
export interface ScreenSnapshot {
  cols: number;
  rows: number;
  /** Visible rows, top to bottom, trailing blanks trimmed per row. */
  lines: string[];
  /** Rows whose text differs from the previous snapshot of the same screen (absent: unknown, assume all). */
  changedRows?: number[];
  cursorX: number;
  cursorY: number;
  /** Rows scrolled into history above the visible screen: row y on screen is absolute row baseY + y. */
  baseY: number;
  altScreen: boolean;
  bracketedPaste: boolean;
  title: string;
}
