// Who may do what. Reading from loopback is open (the dashboard is for the person at this machine); anything
// that changes state, a websocket opened by a foreign page, and everything on a non-loopback bind needs the
// token: as `Authorization: Bearer`, or as the cookie a one-time dashboard link sets.
import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { FastifyRequest } from 'fastify';

export const TOKEN_COOKIE = 'ts_token';
/** A one-time dashboard link works once, and only for this long: a link left in scrollback goes stale. */
export const CODE_TTL_MS = 10 * 60_000;
/** At most this many unused links at once (each `make run` or `termsupervisor dashboard` makes one). */
const MAX_CODES = 32;

export class Auth {
  private readonly codes = new Map<string, number>();
  private readonly tokenBuf: Buffer;

  constructor(
    private readonly token: string,
    private readonly loopbackOnly: boolean,
    private readonly now: () => number = Date.now,
  ) {
    this.tokenBuf = Buffer.from(token);
  }

  /** A fresh one-time code for /auth?code=. */
  issueCode(): string {
    for (const [c, exp] of this.codes) if (exp <= this.now()) this.codes.delete(c);
    if (this.codes.size >= MAX_CODES) this.codes.delete(this.codes.keys().next().value!);
    const code = randomBytes(18).toString('base64url');
    this.codes.set(code, this.now() + CODE_TTL_MS);
    return code;
  }

  /** Spends a one-time code: true the first time, within its lifetime. */
  redeem(code: string): boolean {
    const exp = this.codes.get(code);
    if (exp === undefined) return false;
    this.codes.delete(code);
    return exp > this.now();
  }

  /** The token this daemon trusts, for the cookie set after a redeemed code. */
  get cookieValue(): string {
    return this.token;
  }

  /** The token shown: as a header (a client that holds it), or as the dashboard's cookie, which counts only on a
   * request from our own page. A browser sends a SameSite=Strict cookie to every port of 127.0.0.1 (one site), so a
   * page served on another loopback port would carry it too: its Origin (and Sec-Fetch-Site) are checked first. */
  hasToken(req: FastifyRequest): boolean {
    const h = req.headers.authorization;
    if (h?.startsWith('Bearer ') && this.matches(h.slice(7).trim())) return true;
    if (!fromOwnPage(req)) return false;
    const c = cookie(req.headers.cookie, TOKEN_COOKIE);
    return c !== null && this.matches(c);
  }

  /** Reads need the token only off loopback. */
  mayRead(req: FastifyRequest): boolean {
    return this.loopbackOnly || this.hasToken(req);
  }

  /** Changes need the token, and a browser's request must come from our own page (no cross-site forms). */
  mayChange(req: FastifyRequest): boolean {
    return this.hasToken(req) && sameOrigin(req);
  }

  /** A websocket: from our own page or a non-browser client on loopback; anyone else shows the token. */
  mayWatch(req: FastifyRequest): boolean {
    // The cookie counts only from our own page (hasToken checks the Origin before it), so a page on another port
    // of 127.0.0.1 gets no further with it than without; the header is no browser's (a page cannot set it on a
    // websocket), it counts wherever the client says it comes from.
    if (this.hasToken(req)) return true;
    return this.loopbackOnly && sameOrigin(req);
  }

  private matches(s: string): boolean {
    const b = Buffer.from(s);
    return b.length === this.tokenBuf.length && timingSafeEqual(b, this.tokenBuf);
  }
}

/** No Origin (curl, the CLI) or an Origin naming the host the request was sent to. */
export function sameOrigin(req: FastifyRequest): boolean {
  const origin = req.headers.origin;
  if (origin === undefined) return true;
  try {
    return new URL(origin).host === req.headers.host;
  } catch {
    return false;
  }
}

/** Sec-Fetch-Site values of a request made by our own page (same-origin) or by the person (typed, a bookmark). */
const OWN_FETCH_SITES = new Set(['same-origin', 'none']);

/** A request a browser made from our own page, or no browser's at all: its Origin (when sent) names this host, and
 * its Sec-Fetch-Site (when sent: Chromium, Firefox, Safari) says same-origin or none. A GET from a page on another
 * port carries no Origin, but Sec-Fetch-Site says same-site. */
export function fromOwnPage(req: FastifyRequest): boolean {
  if (!sameOrigin(req)) return false;
  const site = req.headers['sec-fetch-site'];
  return site === undefined || OWN_FETCH_SITES.has(String(site));
}

/**
 * On a loopback bind the Host header must name a loopback host: a web page that re-points its own domain at
 * 127.0.0.1 (DNS rebinding) must not read pane screens.
 */
export function loopbackHost(host: string | undefined): boolean {
  if (!host) return false;
  const name = host.startsWith('[') ? host.slice(0, host.indexOf(']') + 1) : host.split(':')[0]!;
  return name === 'localhost' || name === '[::1]' || /^127\.\d+\.\d+\.\d+$/.test(name);
}

export function isLoopbackAddress(host: string): boolean {
  return host === 'localhost' || host === '::1' || /^127\.\d+\.\d+\.\d+$/.test(host);
}

function cookie(header: string | undefined, name: string): string | null {
  if (!header) return null;
  for (const part of header.split(';')) {
    const i = part.indexOf('=');
    if (i > 0 && part.slice(0, i).trim() === name) {
      // A malformed escape is no token. Thrown, it would be a 500, and in the websocket upgrade handler a crash.
      try {
        return decodeURIComponent(part.slice(i + 1).trim());
      } catch {
        return null;
      }
    }
  }
  return null;
}
