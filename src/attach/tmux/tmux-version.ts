// Which tmux is new enough: subscriptions (refresh-client -B) and the control-mode attach flags need 3.2. Shared by
// the watcher (it will not attach to an older one) and `termsupervisor doctor` (which says so).
export const MIN_TMUX_VERSION = '3.2';

/** `tmux -V`'s line ("tmux 3.4", "tmux 3.3a", "tmux next-3.5", "tmux master"): new enough? Unversioned builds are. */
export function tmuxVersionSupported(line: string): boolean {
  const m = /(\d+)\.(\d+)/.exec(line);
  if (!m) return true;
  const [major, minor] = MIN_TMUX_VERSION.split('.').map(Number) as [number, number];
  return Number(m[1]) > major || (Number(m[1]) === major && Number(m[2]) >= minor);
}
