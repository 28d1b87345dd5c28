// Desktop notifications. Permission is asked only from a click (browsers ignore or penalise asking unprompted).
export type Permission = NotificationPermission | 'unsupported';

export function permission(): Permission {
  return typeof Notification === 'undefined' ? 'unsupported' : Notification.permission;
}

export async function askPermission(): Promise<Permission> {
  if (typeof Notification === 'undefined') return 'unsupported';
  return Notification.requestPermission();
}

/** Shows one notification per pane (a newer one replaces the older); a click brings the tab forward. */
export function notify(title: string, body: string, tag: string, onClick: () => void): void {
  if (permission() !== 'granted') return;
  try {
    const n = new Notification(title, { body, tag });
    n.onclick = () => {
      window.focus();
      onClick();
      n.close();
    };
  } catch {
    // some browsers only allow notifications from a service worker: sound and the tab title still tell
  }
}
