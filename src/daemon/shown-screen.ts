// A pane's screen text as it may leave the daemon (the API's screen, the feed's edge, a question, a transition's
// line): secrets masked on the logical line, so a key the terminal wrapped over two rows is masked in both.
import type { PaneScreen } from '../screen/pane-screen.js';
import { maskFragments, redactRows } from './redact-lines.js';

/** The visible rows, masked, as screen() has always returned them (trailing blank rows dropped). */
export function shownScreen(screen: PaneScreen): string {
  const top = screen.viewportTop;
  const { start, rows } = screen.wrappedRows(top, top + screen.term.rows);
  const masked = redactRows(rows).rows;
  return masked.slice(top - start, top - start + screen.term.rows).join('\n').replace(/\n+$/, '');
}

/** The live edge's rows (PaneScreen.edge), masked. */
export function shownEdge(screen: PaneScreen, n: number): string[] {
  const ys = screen.edgeRows(n);
  if (!ys.length) return [];
  const { start, rows } = screen.wrappedRows(ys[0]!, ys[ys.length - 1]! + 1);
  const masked = redactRows(rows).rows;
  return ys.map((y) => masked[y - start]!);
}

/** Pieces of secrets a wrap split on the visible screen: text read from one of its rows is masked with them. */
export function screenFragments(screen: PaneScreen): string[] {
  const top = screen.viewportTop;
  // Most screens wrap nothing: then there are no fragments, and no row's text need be read (this runs per transition).
  if (!screen.anyWrapped(top, top + screen.term.rows)) return [];
  return redactRows(screen.wrappedRows(top, top + screen.term.rows).rows, true).fragments;
}

/** One line read from the screen (a transition's, a question's), masked as the screen it came from. */
export function shownLine(screen: PaneScreen, line: string): string {
  return maskFragments(line, line ? screenFragments(screen) : []);
}
