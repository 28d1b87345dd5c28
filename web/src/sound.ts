// Short tones made with Web Audio (no files to fetch): a two-note chime when a pane needs the person, a single
// softer note when one is done; for supervised tasks a rising three-note arpeggio when one finished and a low
// repeated knock when one needs the person (paused, failed, exhausted). Browsers keep audio suspended until a user
// gesture: unlockAudio() runs on the first.
export type Tone = 'needs' | 'done' | 'task_finished' | 'task_needs';

let ctx: AudioContext | null = null;
/** Making a context threw (no audio device): not tried again on every alert. */
let broken = false;

function context(): AudioContext | null {
  if (!ctx && !broken && typeof AudioContext !== 'undefined') {
    try {
      ctx = new AudioContext();
    } catch {
      broken = true;
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
  task_finished: { type: 'sine', peak: 0.2, notes: [[523.25, 0, 0.16], [659.25, 0.12, 0.16], [783.99, 0.24, 0.4]] },
  task_needs: { type: 'square', peak: 0.12, notes: [[392, 0, 0.12], [392, 0.18, 0.12], [311.13, 0.36, 0.3]] },
};

/** Plays `tone` at `volume` (0..1); false when the browser has no audio to play it with. The context is made by
 * unlockAudio() (the person's first gesture), never here: made before a gesture it stays suspended, and tones
 * scheduled on it pile up (at 100 panes, hundreds of nodes) to all sound at once when it starts. */
export function playTone(tone: Tone, volume: number): boolean {
  const c = ctx;
  if (!c || c.state !== 'running' || volume <= 0) return false;
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
