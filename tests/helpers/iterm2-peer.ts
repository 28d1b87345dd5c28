// A fake iTerm2 bridge for the daemon's tests: a websocket client at /bridge/iterm2 speaking the bridge protocol
// (docs/iterm2-bridge.md) as bridge/iterm2_bridge.py does, plus a real daemon app (buildApp, a PaneRegistry on a
// temporary SQLite file, Iterm2Bridges) to point it at, and screens of a shell to send.
import type { AddressInfo } from 'node:net';
import { Auth } from '../../src/web/auth.js';
import { buildApp, type App } from '../../src/web/build-app.js';
import { Iterm2Bridges } from '../../src/daemon/iterm2-bridge.js';
import { PaneLinks } from '../../src/daemon/pane-links.js';
import { makeWebDir, TOKEN } from './web-fake-api.js';
import { testRegistry, type TestRegistry } from './web-registry.js';
import { WsProbe } from './web-ws.js';

export const SHELL_ROWS = 24;
export const SHELL_COLS = 80;

/** A shell's screen: `lines` from the top, blank rows below, the cursor at the end of the last line. */
export function shellScreen(lines: string[], rows = SHELL_ROWS): { rows: string[]; cursor: { x: number; y: number } } {
  const out = [...lines, ...new Array<string>(Math.max(0, rows - lines.length)).fill('')].slice(0, rows);
  const y = Math.min(lines.length, rows) - 1;
  return { rows: out, cursor: { x: lines[y]?.length ?? 0, y: Math.max(0, y) } };
}

export class FakeBridge {
  constructor(readonly probe: WsProbe) {}

  static async connect(port: number, token: string | null = TOKEN): Promise<FakeBridge> {
    const headers: Record<string, string> = token ? { Authorization: `Bearer ${token}` } : {};
    return new FakeBridge(await WsProbe.open(`ws://127.0.0.1:${port}/bridge/iterm2`, { headers }));
  }

  send(m: unknown): void {
    this.probe.send(m);
  }

  /** Says hello and waits for the welcome. */
  async hello(): Promise<{ type: 'welcome'; v: number; daemon: string }> {
    this.send({ type: 'hello', v: 1, bridge: 'iterm2_bridge/test', iterm2: '3.5-test' });
    return this.probe.waitFor((m) => m.type === 'welcome', 'welcome');
  }

  sessions(...sessions: Array<{ session: string; name?: string; cols?: number; rows?: number; command?: string }>): void {
    this.send({ type: 'sessions', sessions: sessions.map((s) => ({ name: 'zsh', cols: SHELL_COLS, rows: SHELL_ROWS, ...s })) });
  }

  screen(session: string, lines: string[], over: { cols?: number; rows?: number } = {}): void {
    const s = shellScreen(lines, over.rows);
    this.send({ type: 'screen', session, ...s, cols: over.cols ?? SHELL_COLS });
  }

  prompt(session: string, event: 'prompt' | 'command_start' | 'command_end', extra: { command?: string; status?: number } = {}): void {
    this.send({ type: 'prompt', session, event, ...extra });
  }

  key(session: string, key: 'enter' | 'escape' | 'interrupt'): void {
    this.send({ type: 'key', session, key });
  }

  variable(session: string, name: string, value: string | number | null): void {
    this.send({ type: 'variable', session, name, value });
  }

  focus(session: string): void {
    this.send({ type: 'focus', session });
  }

  close(): Promise<void> {
    return this.probe.close();
  }
}

export interface BridgeApp {
  r: TestRegistry;
  bridges: Iterm2Bridges;
  app: App;
  port: number;
  /** A fake bridge connected with the token (not yet said hello). */
  connect(token?: string | null): Promise<FakeBridge>;
  close(): Promise<void>;
}

/** A real daemon app listening on loopback, with the iTerm2 bridge endpoint wired as the daemon wires it. */
export async function bridgeApp(): Promise<BridgeApp> {
  let bridges: Iterm2Bridges | null = null;
  let links: PaneLinks | null = null;
  const r = testRegistry({
    onLink: (kind, ws, remote) => (kind === 'iterm2' ? bridges!.accept(ws, remote) : links!.accept(ws, remote)),
    sendText: (id, text) => bridges?.sendText(id, text) ?? false,
    focusDoors: { iterm2: (id) => bridges?.activate(id) ?? null },
  });
  bridges = new Iterm2Bridges(r.registry, r.log.logger);
  links = new PaneLinks(r.registry, r.log.logger);
  const web = makeWebDir();
  const app = buildApp({ api: r.registry, auth: new Auth(TOKEN, true), webDir: web.dir, loopback: true, hub: { coalesceMs: 20, maxBufferedBytes: 1 << 20, slowDropMs: 10_000 } });
  await app.fastify.listen({ host: '127.0.0.1', port: 0 });
  const port = (app.fastify.server.address() as AddressInfo).port;
  const peers: FakeBridge[] = [];
  return {
    r,
    bridges,
    app,
    port,
    async connect(token: string | null = TOKEN) {
      const peer = await FakeBridge.connect(port, token);
      peers.push(peer);
      return peer;
    },
    async close() {
      for (const p of peers) await p.close();
      bridges!.closeAll();
      await app.close();
      r.close();
      web.remove();
    },
  };
}
