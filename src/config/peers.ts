// Peer daemons (config `peers`, `daemon --peer`): other termsupervisor daemons whose panes this one shows. Checks
// the command line's peers and resolves them with the config's into one list of peers with distinct names.
import { homedir } from 'node:os';
import { join } from 'node:path';

/** One entry of config `peers`, as the schema checked it (keys, types, url and token_file set, a usable name). */
export interface PeerConfig {
  /** Absent or '': the URL's host. */
  name?: string;
  url: string;
  token_file: string;
  /** Absent: false. */
  allow_typing?: boolean;
}

/** A peer as the daemon uses it. */
export interface PeerSpec {
  /** Unique among peers; the host shown on its panes and the prefix of their ids (`<name>:<its pane id>`). */
  name: string;
  /** Base URL of the peer's API (http://127.0.0.1:7879, through `ssh -L` for another machine). */
  url: string;
  /** The file holding the peer's token (read at each connect, so a rotated token needs no restart). */
  tokenFile: string;
  /** Answers, replies and interrupts made here are forwarded to the peer; otherwise refused (403). Acks always are. */
  allowTyping: boolean;
}

/** A peer's name: it becomes part of pane ids (`name:…`), so no colon, no space, nothing to escape. */
const NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,62}$/;

/** What is wrong with a peer URL, or null. Credentials never go in it: the token lives in a file. */
export function urlProblem(url: string): string | null {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return `${JSON.stringify(url)} is not a URL (e.g. http://127.0.0.1:7879)`;
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') return `expected http:// or https://, got ${u.protocol}`;
  if (u.username || u.password) return 'a URL with a user or password is refused: put the token in a file (token_file, --peer-token-file)';
  if (u.search || u.hash) return 'expected no query or fragment (just scheme, host, port and an optional path)';
  return null;
}

function nameProblem(name: string): string {
  return `${JSON.stringify(name)} is not a usable peer name (letters, digits, ".", "_", "-"; it prefixes pane ids as "name:")`;
}

/** The default name: the URL's host (a name such as `devbox`, or the address `127.0.0.1`). */
function defaultName(url: string): string {
  // An IPv6 address has colons, which separate a peer's name from its pane ids: they become dashes.
  return new URL(url).hostname.replace(/^\[|\]$/g, '').replace(/:/g, '-').replace(/^-+/, '');
}

/** `[NAME=]URL` from `--peer`: a name lets two tunnels on 127.0.0.1 be told apart. */
export function parsePeerArg(arg: string): { name?: string; url: string } {
  const eq = arg.indexOf('=');
  const scheme = arg.indexOf('://');
  if (eq > 0 && (scheme < 0 || eq < scheme)) return { name: arg.slice(0, eq), url: arg.slice(eq + 1) };
  return { url: arg };
}

/**
 * Config peers first, then `--peer` ones (each paired, in order, with a `--peer-token-file`). Throws an Error whose
 * message says what to fix: a URL that is none or holds credentials, a URL without its token file, two peers with
 * one name.
 */
export function resolvePeers(config: PeerConfig[], cli: { peers: string[]; tokenFiles: string[] }): PeerSpec[] {
  if (cli.peers.length !== cli.tokenFiles.length) {
    throw new Error(`each --peer needs its --peer-token-file (in the same order): got ${cli.peers.length} --peer and ${cli.tokenFiles.length} --peer-token-file`);
  }
  const out: PeerSpec[] = config.map((p, i) => {
    const why = urlProblem(p.url);
    if (why) throw new Error(`config peers[${i}].url: ${why}`);
    return { name: p.name || defaultName(p.url), url: trimSlash(p.url), tokenFile: expandHome(p.token_file), allowTyping: p.allow_typing ?? false };
  });
  cli.peers.forEach((arg, i) => {
    const { name, url } = parsePeerArg(arg);
    const why = urlProblem(url);
    if (why) throw new Error(`--peer ${arg}: ${why}`);
    const n = name ?? defaultName(url);
    if (!NAME.test(n)) throw new Error(`--peer ${arg}: ${nameProblem(n)}`);
    out.push({ name: n, url: trimSlash(url), tokenFile: cli.tokenFiles[i]!, allowTyping: false });
  });
  const seen = new Set<string>();
  for (const p of out) {
    if (seen.has(p.name)) throw new Error(`two peers are named ${JSON.stringify(p.name)}: give each its own name (config peers[].name, or --peer NAME=URL)`);
    seen.add(p.name);
  }
  return out;
}

/** `~/x` in a config file is the home folder's x, as a shell would read it. */
function expandHome(path: string): string {
  return path === '~' || path.startsWith('~/') ? join(homedir(), path.slice(1)) : path;
}

function trimSlash(url: string): string {
  return url.replace(/\/+$/, '');
}
