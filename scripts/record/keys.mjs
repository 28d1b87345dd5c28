// Key names a scenario may press, as the bytes a terminal sends for them, and a person's typing pace.

const NAMED = {
  Enter: '\r',
  Tab: '\t',
  Esc: '\x1b',
  Space: ' ',
  Backspace: '\x7f',
  Up: '\x1b[A',
  Down: '\x1b[B',
  Right: '\x1b[C',
  Left: '\x1b[D',
  Home: '\x1b[H',
  End: '\x1b[F',
  PageUp: '\x1b[5~',
  PageDown: '\x1b[6~',
};

/** "Enter", "Esc", "C-c" (Ctrl + a letter) or literal text: the bytes to write. */
export function keyBytes(name) {
  if (Object.hasOwn(NAMED, name)) return NAMED[name];
  const ctrl = /^C-([a-z@\[\\\]^_])$/i.exec(name);
  if (ctrl) return String.fromCharCode(ctrl[1].toUpperCase().charCodeAt(0) & 0x1f);
  return name;
}

/** tmux send-keys names for the same keys (literal text goes with -l). */
export function tmuxKey(name) {
  const map = { Enter: 'Enter', Tab: 'Tab', Esc: 'Escape', Space: 'Space', Backspace: 'BSpace', Up: 'Up', Down: 'Down', Right: 'Right', Left: 'Left', Home: 'Home', End: 'End', PageUp: 'PPage', PageDown: 'NPage' };
  if (Object.hasOwn(map, name)) return { key: map[name] };
  if (/^C-[a-z@\[\\\]^_]$/i.test(name)) return { key: name };
  return { literal: name };
}

/** A small seeded PRNG (mulberry32): the same scenario types at the same pace every time. */
export function prng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Milliseconds between two keys typed by a person: 40-80 ms. */
export function keyGapMs(rand) {
  return 40 + Math.round(rand() * 40);
}
