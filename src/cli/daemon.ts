// `termsupervisor daemon`: runs the service in the foreground (a service manager or `make run` keeps it), prints
// the dashboard's one-time link, and shuts down cleanly on SIGINT/SIGTERM (a second signal forces the exit).
import { startDaemon } from '../daemon/daemon.js';
import { closeLogger, createLogger, daemonLogPath } from '../daemon/logger.js';
import { StoreError } from '../store/store-error.js';
import { DaemonRunningError } from '../daemon/single-instance.js';
import { LockError } from '../daemon/instance-lock.js';
import { parseArgs, UsageError } from './args.js';
import { configFor } from './load-config.js';
import { VERSION } from './version.js';
import { commandName } from './command-name.js';
import { SshSpecError } from '../attach/ssh/ssh-command.js';
import { resolvePeers } from '../config/peers.js';

export const DAEMON_USAGE = `usage: termsupervisor daemon [--port N] [--host ADDR] [--db PATH] [--config PATH] [--tmux|--no-tmux] [--tmux-socket NAME|PATH]
        [--remote [user@]host[:port]]... [--peer [NAME=]URL --peer-token-file FILE]...

Runs the background service: the live dashboard, the REST API and websocket feed, the history database, and
notifications. Panes join it from 'termsupervisor run'; tmux panes are found by themselves. Prints a one-time
dashboard link on start.
  --port   port to listen on (default 7878; 0 picks a free one)
  --host   address to bind (default 127.0.0.1; anything else requires the token for every request)
  --db     history database (default: $XDG_STATE_HOME/termsupervisor/history.sqlite)
  --tmux, --no-tmux  watch every tmux pane (default on, config tmux.enabled: when a tmux server runs)
  --tmux-socket      the tmux server to watch: a socket name (tmux -L) or path (tmux -S); implies --tmux
  --remote           also follow the tmux panes of another machine over ssh (repeatable; read-only: config
                     \`remotes\` sets a name, a socket and allow_typing). Panes show as <host>:%N. docs/remote.md
  --peer   another termsupervisor daemon whose panes to show here, as host NAME (default: the URL's host), e.g.
           box=http://127.0.0.1:7879 through \`ssh -L 7879:127.0.0.1:7878 box\`; repeatable (config peers)
  --peer-token-file  the file holding that peer's token (one per --peer, in the same order); never logged
  --config a config file (default: $XDG_CONFIG_HOME/termsupervisor/config.json if present)
Files: token in $XDG_CONFIG_HOME/termsupervisor/token (0600), log in $XDG_STATE_HOME/termsupervisor/daemon.log,
the daemon's address in $XDG_RUNTIME_DIR/termsupervisor/daemon.json.
examples:
  termsupervisor daemon
  termsupervisor daemon --port 0 --db /tmp/ts.sqlite`;

export async function daemonCommand(argv: string[]): Promise<number> {
  const a = parseArgs(argv, { values: ['port', 'host', 'db', 'config', 'tmux-socket', 'remote', 'peer', 'peer-token-file'], flags: ['help', 'tmux', 'no-tmux'], multiple: ['remote', 'peer', 'peer-token-file'] });
  if (a.options.has('help')) return void process.stdout.write(DAEMON_USAGE + '\n'), 0;
  if (a.positional.length || a.rest.length) throw new UsageError(`daemon takes no arguments\n\n${DAEMON_USAGE}`);
  const cfg = configFor(a.options.get('config'));
  const port = portOption(a.options.get('port'));
  const host = a.options.get('host');
  const db = a.options.get('db');
  if (host === true || db === true) throw new UsageError(`--${host === true ? 'host' : 'db'} needs a value`);
  const tmux = tmuxOptions(a.options);
  const remotes = a.lists.get('remote') ?? [];
  let peers;
  try {
    peers = resolvePeers(cfg.peers, { peers: a.lists.get('peer') ?? [], tokenFiles: a.lists.get('peer-token-file') ?? [] });
  } catch (e) {
    throw new UsageError((e as Error).message);
  }

  const logFile = daemonLogPath();
  const log = createLogger({ file: logFile, level: cfg.log.level, maxBytes: cfg.log.max_bytes, keep: cfg.log.keep });
  // What still escapes every handler (no pane's screen, analysis or state code can: PaneMonitor catches it) is written
  // to daemon.log before node prints it and exits, so the log says what ended the daemon.
  process.on('uncaughtExceptionMonitor', (err, origin) => log.fatal({ kind: 'daemon', event: 'crash', origin, err }, 'daemon crashed'));
  let daemon;
  try {
    daemon = await startDaemon({ cfg, version: VERSION, log, ...(port !== undefined && { port }), ...(host && { host }), ...(db && { db }), tmux, remotes, peers });
  } catch (e) {
    if (e instanceof StoreError || e instanceof SshSpecError) throw new UsageError(e.message);
    // Not a usage mistake: the person's command was right, another daemon has the files. Exit 1, no usage text.
    if (e instanceof DaemonRunningError || e instanceof LockError) {
      process.stderr.write(`termsupervisor: daemon: ${e.message}\n`);
      closeLogger(log);
      return 1;
    }
    const err = e as NodeJS.ErrnoException;
    if (err.code === 'EADDRINUSE') throw new UsageError(`daemon: port ${port ?? cfg.daemon.port} is in use (another daemon? try --port 0)`);
    throw e;
  }
  const out = process.stdout;
  out.write(`termsupervisor ${VERSION}: daemon listening on ${daemon.url} (log: ${logFile})\n`);
  out.write(`termsupervisor: dashboard ${daemon.dashboardUrl()}\n`);
  out.write(`termsupervisor: add a pane with: ${commandName()} run -- <command>   (stop the daemon with Ctrl-C)\n`);

  return await new Promise<number>((resolve) => {
    let signals = 0;
    const stop = (sig: NodeJS.Signals) => {
      if (++signals > 1) {
        process.stderr.write(`termsupervisor: ${sig} again: exiting now\n`);
        process.exit(130);
      }
      process.stderr.write(`termsupervisor: ${sig}: shutting down (send it again to force)\n`);
      void daemon.close().then(
        () => {
          closeLogger(log);
          resolve(0);
        },
        (e: unknown) => {
          process.stderr.write(`termsupervisor: shutdown: ${(e as Error).message}\n`);
          resolve(1);
        },
      );
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
}

function tmuxOptions(options: Map<string, string | true>): { enabled?: boolean; sockets?: string[] } {
  const socket = options.get('tmux-socket');
  if (options.has('no-tmux') && (options.has('tmux') || socket !== undefined)) throw new UsageError('--no-tmux goes with neither --tmux nor --tmux-socket');
  if (socket === true || socket === '') throw new UsageError('--tmux-socket needs a socket name or path');
  if (options.has('no-tmux')) return { enabled: false };
  return { ...((options.has('tmux') || socket) && { enabled: true }), ...(socket && { sockets: [socket] }) };
}

function portOption(v: string | true | undefined): number | undefined {
  if (v === undefined) return undefined;
  if (v === true || !/^\d+$/.test(v) || Number(v) > 65535) throw new UsageError(`--port must be a port number 0-65535, got ${JSON.stringify(v)}`);
  return Number(v);
}
