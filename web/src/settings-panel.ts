// The alert settings panel: mute, volume, which states alert, desktop notifications. Every change is saved.
import { ALERT_KINDS, type AlertKind } from './alert-kind.js';
import { loadSettings, saveSettings, type Settings } from './settings.js';
import { byId } from './dom.js';
import { askPermission, permission } from './notify.js';
import { playTone, unlockAudio } from './sound.js';

const storage = (): Storage | undefined => {
  try {
    return localStorage;
  } catch {
    return undefined;
  }
};

export function settingsPanel(): () => Settings {
  const s = loadSettings(storage());
  const panel = byId('settings');
  const toggle = byId<HTMLButtonElement>('settings-toggle');
  const muted = byId<HTMLInputElement>('set-muted');
  const volume = byId<HTMLInputElement>('set-volume');
  const notifyBox = byId<HTMLInputElement>('set-notify');
  const permBtn = byId<HTMLButtonElement>('set-permission');
  const permState = byId('set-permission-state');
  const kinds = new Map<AlertKind, HTMLInputElement>(ALERT_KINDS.map((k) => [k, byId<HTMLInputElement>(`set-kind-${k}`)]));

  const save = () => saveSettings(storage(), s);
  const showPermission = () => {
    const p = permission();
    permState.textContent = p === 'unsupported' ? 'not supported by this browser' : `permission: ${p}`;
    permBtn.hidden = p !== 'default';
  };

  muted.checked = s.muted;
  volume.value = String(s.volume);
  notifyBox.checked = s.notify;
  for (const [k, box] of kinds) box.checked = s.kinds[k];
  showPermission();
  toggle.setAttribute('aria-label', s.muted ? 'Alert settings (muted)' : 'Alert settings');

  const show = (open: boolean) => {
    panel.hidden = !open;
    toggle.setAttribute('aria-expanded', String(open));
  };
  // `hidden` may be 'until-found' (DOM): hidden all the same.
  toggle.addEventListener('click', () => show(panel.hidden !== false));
  // Esc inside the panel or a click elsewhere closes it (Esc goes no further: an open detail view stays)
  panel.addEventListener('keydown', (e) => {
    if (e.key !== 'Escape') return;
    e.stopPropagation();
    show(false);
    toggle.focus();
  });
  document.addEventListener('pointerdown', (e) => {
    if (!panel.hidden && !panel.contains(e.target as Node) && !toggle.contains(e.target as Node)) show(false);
  });
  muted.addEventListener('change', () => {
    s.muted = muted.checked;
    toggle.dataset.muted = String(s.muted);
    save();
  });
  toggle.dataset.muted = String(s.muted);
  volume.addEventListener('input', () => {
    s.volume = Number(volume.value);
    save();
  });
  notifyBox.addEventListener('change', () => {
    s.notify = notifyBox.checked;
    save();
  });
  for (const [k, box] of kinds)
    box.addEventListener('change', () => {
      s.kinds[k] = box.checked;
      save();
    });
  permBtn.addEventListener('click', () => void askPermission().then(showPermission));
  byId('set-test').addEventListener('click', () => {
    unlockAudio();
    playTone('needs', s.volume);
    window.setTimeout(() => playTone('done', s.volume), 700);
    window.setTimeout(() => playTone('task_needs', s.volume), 1400);
    window.setTimeout(() => playTone('task_finished', s.volume), 2200);
  });
  return () => s;
}
