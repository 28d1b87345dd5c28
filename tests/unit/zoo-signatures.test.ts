// No zoo variant may carry a real agent's signature: 500 generated variants of each zoo agent, every text in their
// options and typed prompts (and the logo rows the Ink agent draws), in every form it can be drawn (after a prompt
// glyph, inside a box border, after a spinner glyph in the title), checked against the detector's own
// `detection.*.screen` / `.title` regexes, loaded here from the source config; and the generator's guard refuses a
// planted one.
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/config.js';
// @ts-expect-error plain .mjs tools, no type declarations
import { refuseSignatures, variant, variants } from '../zoo/variants.mjs';
// @ts-expect-error plain .mjs tools, no type declarations
import { screenForms, signatureIn, stringsIn, titleForms } from '../zoo/signatures.mjs';
// @ts-expect-error plain .mjs tools, no type declarations
import { logoRows } from '../zoo/agents/ink-look.mjs';

/** Variants per agent: enough that every pick list's every entry is drawn many times over. */
const PER_AGENT = 500;
const rules = Object.entries(loadConfig().detection).map(([agent, r]) => ({ agent, screen: r.screen, title: r.title }));

interface V {
  name: string;
  cols: number;
  options: { logo_lines?: number; logo_kind?: string; placeholder?: string | null };
  steps: unknown[];
}

/** Every text the variants draw, each once (most repeat across variants), with the first variant that draws it. */
function textsOf(vs: V[]): Map<string, string> {
  const texts = new Map<string, string>();
  for (const v of vs) {
    const own: string[] = [...stringsIn(v.options), ...stringsIn(v.steps)];
    if (v.options.logo_lines) own.push(...logoRows(v.options.logo_lines, v.cols, v.options.logo_kind));
    for (const t of own) if (!texts.has(t)) texts.set(t, v.name);
  }
  return texts;
}

function hits(vs: V[]): string[] {
  const out: string[] = [];
  for (const [t, name] of textsOf(vs)) {
    for (const r of rules) {
      for (const f of screenForms(t) as string[]) if (r.screen.test(f)) out.push(`${name}: ${JSON.stringify(f)} ~ detection.${r.agent}.screen`);
      for (const f of titleForms(t) as string[]) if (r.title.test(f)) out.push(`${name}: ${JSON.stringify(f)} ~ detection.${r.agent}.title`);
    }
  }
  return out;
}

describe('zoo texts carry no real agent signature', () => {
  for (const agent of ['ink', 'fullscreen']) {
    it(`${PER_AGENT} ${agent} variants (seeds 1 and 7): none matches a detection screen or title regex`, () => {
      const vs = [...variants(agent, 1, PER_AGENT / 2), ...variants(agent, 7, PER_AGENT / 2)] as V[];
      expect(vs).toHaveLength(PER_AGENT);
      expect(hits(vs)).toEqual([]);
      // the texts checked are real: placeholders are drawn, and more than one of them
      expect(new Set(vs.map((v) => v.options.placeholder)).size).toBeGreaterThan(2);
    }, 180_000); // generating 500 variants is most of it: ~10 s on a loaded 2-core machine
  }

  it('the forms checked catch a real signature drawn as an agent draws it (Gemini CLI\'s input row, a title)', () => {
    expect(signatureIn('Type your message or @path/to/file', rules)?.agent).toBe('gemini');
    expect(screenForms('Type your message or @path/to/file')).toContain('│ > Type your message or @path/to/file');
    expect(signatureIn('Working…', rules)).toMatchObject({ agent: 'gemini', field: 'title' });
    expect(signatureIn('Welcome to Kimi Code CLI!', rules)?.agent).toBe('kimi');
    expect(signatureIn('Ask anything, or type / for commands', rules)).toBeNull();
  });

  it('the generator refuses a variant with a planted signature', () => {
    for (const agent of ['ink', 'fullscreen']) {
      const v = variant(agent, 1, 3) as V;
      expect(() => refuseSignatures(v)).not.toThrow();
      const planted = { ...v, options: { ...v.options, placeholder: 'Type your message or @path/to/file' } };
      expect(() => refuseSignatures(planted)).toThrow(/detection\.gemini\.screen/);
      const footer = { ...v, options: { ...v.options, footer: 'Auto-approve all disabled (Shift+Tab)' } };
      expect(() => refuseSignatures(footer)).toThrow(/detection\.cline\.screen/);
    }
  });
});
