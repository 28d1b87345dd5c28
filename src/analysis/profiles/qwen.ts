// Qwen Code, a Gemini CLI fork (full screen): Gemini CLI's input box, dialogs and order of reading, in Qwen's own
// words and glyphs (config patterns.qwen): a status row "(3s · esc to cancel)", the title's ◐︎ / ✳︎ prefix, a prompt
// echo outside any box. The live edge is what lies below the last prompt echo, up to the live input box.
import type { ScreenSnapshot } from '../../screen/types.js';
import type { Classification } from '../types.js';
import type { ProfileContext } from './context.js';
import { classifyGeminiFamily } from './gemini.js';

export function classifyQwen(snap: ScreenSnapshot, ctx: ProfileContext): Classification {
  return classifyGeminiFamily('qwen', ctx.cfg.patterns.qwen, snap, ctx);
}
