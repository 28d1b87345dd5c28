// Two short tones made with Web Audio (no files to fetch): a two-note chime when a pane needs the person, a single
// softer note when one is done. Browsers keep audio suspended until a user gesture: unlockAudio() runs on the first.
export type Tone = 'needs' | 'done';

let ctx: AudioContext | null = null;

function context(): AudioContext | null {
  if (!ctx && typeof AudioContext !== 'undefined') {
    try {
      ctx = new AudioContext();
    } catch {
      return null;
    }
  }
  return ctx;
}

export function unlockAudio(): void {
  const c = context();
  if (c?.state === 'suspended') void c.resume().catch(() => {});
}

const NOTES: Record<Tone, { type: OscillatorType; peak: number; notes: Array<[hz: number, at: number, len: number]> }> = {
  needs: { type: 'triangle', peak: 0.35, notes: [[880, 0, 0.18], [659.25, 0.16, 0.28]] },
  done: { type: 'sine', peak: 0.18, notes: [[523.25, 0, 0.35]] },
};

/** Plays `tone` at `volume` (0..1); false when the browser has no audio to play it with. */
export function playTone(tone: Tone, volume: number): boolean {
  const c = context();
  if (!c || volume <= 0) return false;
  const spec = NOTES[tone];
  const now = c.currentTime;
  for (const [hz, at, len] of spec.notes) {
    const osc = c.createOscillator();
    const gain = c.createGain();
    osc.type = spec.type;
    osc.frequency.value = hz;
    // a short attack and an exponential fade: no clicks
    gain.gain.setValueAtTime(0.0001, now + at);
    gain.gain.exponentialRampToValueAtTime(spec.peak * volume, now + at + 0.015);
    gain.gain.exponentialRampToValueAtTime(0.0001, now + at + len);
    osc.connect(gain).connect(c.destination);
    osc.start(now + at);
    osc.stop(now + at + len + 0.02);
  }
  return true;
}
