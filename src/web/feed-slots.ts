// How many /ws feeds may be open at once. Every open feed holds a socket, buffers and a hub entry (about 14 KB
// each, more when it lags): without a cap anything on this machine could open thousands and grow the daemon
// without bound. Feeds opened without the token (a dashboard tab on loopback) get a small share; clients with the
// token (`wait` in scripts, dashboards opened through a link) a larger one. Past the cap a feed is accepted and
// closed at once with FEED_FULL_CLOSE_CODE and a reason saying why, so a client can tell "full" from "gone".

/** Feeds without the token: a person's few dashboard tabs, with room to spare. */
export const MAX_OPEN_FEEDS = 32;
/** Feeds with the token: one per `termsupervisor wait`, so scripts waiting on many panes at once still fit. */
export const MAX_TOKEN_FEEDS = 256;
/** 1013 "Try Again Later": the server is at capacity; the client may come back when a feed closes. */
export const FEED_FULL_CLOSE_CODE = 1013;

export type FeedClass = 'open' | 'token';

export class FeedSlots {
  private readonly used: Record<FeedClass, number> = { open: 0, token: 0 };
  /** Feeds refused for the cap, for /metrics. */
  refused = 0;

  constructor(private readonly max: Record<FeedClass, number> = { open: MAX_OPEN_FEEDS, token: MAX_TOKEN_FEEDS }) {}

  /** A slot for a new feed, with its release; or the reason there is none. */
  take(kind: FeedClass): { release: () => void } | { refused: string } {
    if (this.used[kind] >= this.max[kind]) {
      this.refused++;
      return { refused: `too many live feeds ${kind === 'open' ? 'without the token' : 'with the token'} (${this.max[kind]})` };
    }
    this.used[kind]++;
    let held = true;
    return {
      release: () => {
        if (held) this.used[kind]--;
        held = false;
      },
    };
  }
}
