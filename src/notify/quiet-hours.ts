// Quiet hours: "HH:MM-HH:MM" in local time, possibly wrapping midnight ("22:30-07:00").

export interface QuietWindow {
  /** Minutes since local midnight; the window is [start, end). */
  start: number;
  end: number;
}

const FORMAT = /^([01]\d|2[0-3]):([0-5]\d)-([01]\d|2[0-3]):([0-5]\d)$/;

/** null for "" (no quiet hours) and for a zero-length window ("08:00-08:00" is no window, not the whole day). */
export function parseQuietHours(spec: string): QuietWindow | null {
  const s = spec.trim();
  if (!s) return null;
  const m = FORMAT.exec(s);
  if (!m) throw new Error(`quiet_hours: expected "HH:MM-HH:MM", got ${JSON.stringify(spec)}`);
  const start = Number(m[1]) * 60 + Number(m[2]);
  const end = Number(m[3]) * 60 + Number(m[4]);
  return start === end ? null : { start, end };
}

export function inQuietWindow(w: QuietWindow, minuteOfDay: number): boolean {
  return w.start < w.end ? minuteOfDay >= w.start && minuteOfDay < w.end : minuteOfDay >= w.start || minuteOfDay < w.end;
}

/** Minutes since local midnight of an epoch-ms time, in the process's time zone. */
export function localMinuteOfDay(epochMs: number): number {
  const d = new Date(epochMs);
  return d.getHours() * 60 + d.getMinutes();
}
