// The question a pane's screen puts to the person, read where the analysis reads: the classification's live edge
// (or the visible rows, before any was read) and the cursor's row. Used by the pane's view and by tests alike.
import type { Config } from '../config/config.js';
import { readQuestion, type Question } from '../analysis/question-options.js';
import type { PaneMonitor } from './pane-monitor.js';

export function paneQuestion(monitor: PaneMonitor, program: string, cfg: Config): Question | null {
  const c = monitor.analyzer.classification;
  const rows = c?.liveEdge.length ? c.liveEdge : monitor.screen.text().split('\n');
  return readQuestion({ program, rows, cursorLine: monitor.screen.cursorLine(), cols: monitor.screen.term.cols }, cfg.patterns.questions, cfg.actions);
}
