// Where the live feed connects and how long it waits before trying again. Pure.
const FIRST_RETRY_MS = 500;
const MAX_RETRY_MS = 15_000;

/** The daemon's websocket on the page's own host (ws, or wss behind TLS). */
export function wsUrl(loc: { protocol: string; host: string }): string {
  return `${loc.protocol === 'https:' ? 'wss' : 'ws'}://${loc.host}/ws`;
}

/** Doubling from half a second to 15 s, ±25 % so many tabs do not reconnect in step. */
export function retryDelay(attempt: number, random = Math.random): number {
  const base = Math.min(MAX_RETRY_MS, FIRST_RETRY_MS * 2 ** attempt);
  return Math.round(base * (0.75 + random() / 2));
}
