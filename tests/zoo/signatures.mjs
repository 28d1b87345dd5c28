// No zoo text may carry a real agent's signature: a zoo variant whose banner, placeholder, logo, footer or title
// matched a `detection.<agent>.screen` or `.title` regex of config/default.jsonc would be read as that agent when
// auto-detected, and score a profile on a look it was never written for. The regexes come from the built config
// (dist/config/config.js loadConfig(), `npm run build` first), so they are the detector's own, flags and all.
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const CONFIG_JS = join(ROOT, 'dist', 'config', 'config.js');

/** Prompt glyphs a zoo text may be drawn after (any agent's, so a text is refused whatever glyph its variant has). */
const PROMPTS = ['>', '❯', '›', '→', '$'];
/** Box borders an input row may start with. */
const BORDERS = ['│', '┃', '|'];
/** Spinner frames a title may start with (both agents' sets and the glyphs real agents put in titles). */
const TITLE_GLYPHS = ['⠋', '⠙', '✶', '✸', '✻', '✳', '✢', '·', '∙∙∙', '●∙∙', '▏', '▁', '◇', '✦', '✋', '◐', '…'];

let rules = null;
/** [{ agent, screen: RegExp, title: RegExp }] from the built config. */
export async function detectionRules() {
  if (rules) return rules;
  if (!existsSync(CONFIG_JS)) throw new Error(`${CONFIG_JS} is missing: run \`npm run build\` first (the zoo checks its texts against the detector's own regexes)`);
  const { loadConfig } = await import(pathToFileURL(CONFIG_JS).href);
  rules = Object.entries(loadConfig().detection).map(([agent, r]) => ({ agent, screen: r.screen, title: r.title }));
  return rules;
}

/** The lines a text can show up as on screen: alone, indented, after a prompt glyph, inside a bordered box. */
export function screenForms(text) {
  const forms = [text, `  ${text}`, ` ${text}`];
  for (const p of PROMPTS) {
    forms.push(`${p} ${text}`, `${p}  ${text}`, `${p}${text}`);
    for (const b of BORDERS) forms.push(`${b} ${p} ${text}`, `${b}${p} ${text}`, `${b} ${p}  ${text}`);
  }
  return forms.flatMap((f) => f.split('\n'));
}

/** The window titles a text can show up as: alone, or after a spinner glyph. */
export function titleForms(text) {
  return [text, ...TITLE_GLYPHS.map((g) => `${g} ${text}`)];
}

/** Every string in a value (options, steps): banners, placeholders, footers, splash and logo lines, titles, hints. */
export function stringsIn(x, out = []) {
  if (typeof x === 'string') out.push(x);
  else if (Array.isArray(x)) for (const y of x) stringsIn(y, out);
  else if (x && typeof x === 'object') for (const y of Object.values(x)) stringsIn(y, out);
  return out;
}

/** The first signature a text carries on screen or as a title: `{ agent, field, form }`, or null. */
export function signatureIn(text, rs) {
  for (const r of rs) {
    for (const f of screenForms(text)) if (r.screen.test(f)) return { agent: r.agent, field: 'screen', form: f };
    for (const f of titleForms(text)) if (r.title.test(f)) return { agent: r.agent, field: 'title', form: f };
  }
  return null;
}

/** The signatures in a list of texts (extra lines, e.g. a logo's rows, may be passed too): [{ text, agent, field, form }]. */
export function signaturesIn(texts, rs) {
  const out = [];
  for (const t of new Set(texts)) {
    const s = signatureIn(t, rs);
    if (s) out.push({ text: t, ...s });
  }
  return out;
}
