// The shapes of the pattern library (config/default.jsonc `detection` and `patterns`), compiled: every regex string
// is a RegExp here. One interface per program's profile.

export interface DetectionRule {
  process: RegExp;
  command: RegExp;
  title: RegExp;
  screen: RegExp;
}

export interface GenericPatterns {
  prompt_anchor: RegExp;
  repl_prompt: RegExp;
  repl_continuation: RegExp;
  interactivity: RegExp;
  strong_interactivity: RegExp;
  status_label: RegExp[];
  spinner: RegExp[];
  completion_tokens: string[];
  negative: RegExp[];
  interrupt: RegExp[];
  approval: RegExp[];
  failure: RegExp[];
  tui_input: RegExp;
  menu_cursor: RegExp;
  menu_option: RegExp;
  menu_numbered: RegExp;
  question: RegExp[];
  queued: RegExp[];
  error_block: RegExp[];
  retrying: RegExp[];
}

export interface ClaudePatterns {
  box_rule: RegExp;
  box_input: RegExp;
  prompt_echo: RegExp;
  menu_cursor: RegExp;
  menu_option: RegExp;
  menu_footer: RegExp[];
  panel_echo: RegExp;
  footer_working: RegExp[];
  working: RegExp[];
  later_message: RegExp[];
  working_title: RegExp;
  waiting: RegExp[];
  failed: RegExp[];
  interrupted: RegExp[];
  done: RegExp[];
  ready_footer: RegExp[];
}

export interface CodexPatterns {
  input: RegExp;
  placeholder: RegExp;
  working: RegExp[];
  working_title: RegExp;
  waiting: RegExp[];
  waiting_title: RegExp;
  failed: RegExp[];
  interrupted: RegExp[];
  done: RegExp[];
  side_request_input: RegExp[];
  queued: RegExp[];
  local_command: RegExp;
}

export interface GeminiPatterns {
  box_top: RegExp;
  box_bottom: RegExp;
  input: RegExp;
  menu_cursor: RegExp;
  menu_option: RegExp;
  panel_echo: RegExp;
  working: RegExp[];
  working_title: RegExp;
  waiting: RegExp[];
  waiting_title: RegExp;
  ready_title: RegExp;
  failed: RegExp[];
  interrupted: RegExp[];
  done: RegExp[];
  queued: RegExp[];
  local_command: RegExp;
}

/** opencode and its fork Kilo Code CLI (src/analysis/profiles/opencode.ts). */
export interface OpencodePatterns {
  box_bottom: RegExp;
  box_side: RegExp;
  turn_footer: RegExp;
  footer_duration: RegExp;
  footer_interrupted: RegExp;
  block_row: RegExp;
  working: RegExp[];
  waiting: RegExp[];
}

/** Kilo Code CLI: lists added to opencode's (its screens are opencode's with other words). */
export interface KiloPatterns {
  working: RegExp[];
  waiting: RegExp[];
}

/** Qwen Code, a Gemini CLI fork: Gemini's screen parts in Qwen's words, and a prompt echo outside any box. */
export interface QwenPatterns extends GeminiPatterns {
  prompt_echo: RegExp;
}

/** The shapes of a question's choices (patterns.questions, read by src/analysis/question-options.ts). */
export interface QuestionPatterns {
  numbered_option: RegExp;
  menu_break: RegExp;
  menu_prompt: RegExp;
  yes_no: RegExp;
  press_enter: RegExp;
  buttons: RegExp;
}
