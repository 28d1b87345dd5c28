// The person's alert settings, remembered in localStorage. Unknown or damaged values fall back to the defaults.
// Pure apart from the storage handed in.
import { ALERT_KINDS, type AlertKind } from './alert-kind.js';

export interface Settings {
  muted: boolean;
  /** 0..1 */
  volume: number;
  notify: boolean;
  kinds: Record<AlertKind, boolean>;
}

const KEY = 'termsupervisor.settings';

export function defaults(): Settings {
  return { muted: false, volume: 0.5, notify: true, kinds: { WAITING_APPROVAL: true, FAILED: true, stalled: true, DONE: true, task_needs: true, task_finished: true } };
}

export function parseSettings(raw: string | null): Settings {
  const s = defaults();
  try {
    const v = raw ? (JSON.parse(raw) as Partial<Settings>) : {};
    if (typeof v.muted === 'boolean') s.muted = v.muted;
    if (typeof v.notify === 'boolean') s.notify = v.notify;
    if (typeof v.volume === 'number' && v.volume >= 0 && v.volume <= 1) s.volume = v.volume;
    for (const k of ALERT_KINDS) if (typeof v.kinds?.[k] === 'boolean') s.kinds[k] = v.kinds[k];
  } catch {
    // a damaged entry: start again from the defaults
  }
  return s;
}

export function loadSettings(storage: { getItem(key: string): string | null } | undefined): Settings {
  try {
    return parseSettings(storage?.getItem(KEY) ?? null);
  } catch {
    return defaults(); // storage refused (privacy mode)
  }
}

export function saveSettings(storage: { setItem(key: string, value: string): void } | undefined, s: Settings): void {
  try {
    storage?.setItem(KEY, JSON.stringify(s));
  } catch {
    // not remembered, still applied
  }
}
