// The dashboard's built assets (dist/web, written by scripts/build-web.mjs), read once and served from memory.
// Only the dashboard's own file names are served: the same folder holds the server's compiled modules.
import { readFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.map': 'application/json',
  '.png': 'image/png',
  '.svg': 'image/svg+xml',
};
/** The dashboard's files; anything else in the folder is not ours to serve. */
const ASSET_NAME = /^(?:app\.js(?:\.map)?|style\.css|[\w-]+\.(?:png|svg))$/;

export interface StaticFile {
  body: Buffer;
  type: string;
}

export class StaticFiles {
  /** Files found; a miss is not remembered (a dashboard built after start is served, and unknown names cost no memory). */
  private readonly cache = new Map<string, StaticFile>();
  constructor(private readonly dir: string) {}

  get index(): StaticFile | null {
    return this.load('index.html');
  }

  asset(name: string): StaticFile | null {
    return ASSET_NAME.test(name) ? this.load(name) : null;
  }

  private load(name: string): StaticFile | null {
    const cached = this.cache.get(name);
    if (cached) return cached;
    const p = join(this.dir, name);
    if (!existsSync(p)) return null;
    const ext = name.slice(name.lastIndexOf('.'));
    const f = { body: readFileSync(p), type: TYPES[ext] ?? 'application/octet-stream' };
    this.cache.set(name, f);
    return f;
  }
}
