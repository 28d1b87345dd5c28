// `termsupervisor service install|uninstall|status [--dry-run] [--port N]`: the daemon as a login service.
import { parseArgs, UsageError } from './args.js';
import { installService, serviceStatus, uninstallService, type Platform, type ServiceContext } from '../service/service-manager.js';

export const SERVICE_USAGE = `usage: termsupervisor service install [--port N] [--dry-run]
       termsupervisor service uninstall [--dry-run]
       termsupervisor service status

Keeps the daemon running in the background from login on, restarted if it crashes:
  Linux  a systemd user unit, $XDG_CONFIG_HOME/systemd/user/termsupervisor.service (default ~/.config/...),
         enabled and started with systemctl --user
  macOS  a launchd agent, ~/Library/LaunchAgents/io.github.termsupervisor.daemon.plist, loaded with launchctl
It runs this node and this termsupervisor ('daemon') with your PATH and XDG dirs, so 'run', 'dashboard' and the
hooks find it as they find a daemon started by hand. Its output goes to $XDG_STATE_HOME/termsupervisor/service.log,
beside the daemon's own log (both shown by 'termsupervisor logs'). Install again after moving or upgrading Node.
  install    write the unit and start it; running it again changes nothing (a changed one is rewritten and
             restarted). Without systemctl/launchctl (or its user session) the file is written and the
             commands to run are printed (exit 1).
  uninstall  stop it and remove the file install wrote (only a file carrying install's mark); logs stay
  status     installed? enabled? running? as far as the service manager can tell (it says when it cannot)
  --port N   the daemon's port (default: the config's, 7878)
  --dry-run  print the unit and the commands, change nothing
examples:
  termsupervisor service install --dry-run
  termsupervisor service install --port 7979
  termsupervisor service status
  termsupervisor service uninstall`;

export async function serviceCommand(argv: string[]): Promise<number> {
  const a = parseArgs(argv, { values: ['port'], flags: ['help', 'dry-run'] });
  if (a.options.has('help')) return void process.stdout.write(SERVICE_USAGE + '\n'), 0;
  const [verb, ...extra] = a.positional;
  if (verb !== 'install' && verb !== 'uninstall' && verb !== 'status') throw new UsageError(`service needs install, uninstall or status\n\n${SERVICE_USAGE}`);
  if (extra.length || a.rest.length) throw new UsageError(`service ${verb}: unexpected argument ${JSON.stringify(extra[0] ?? a.rest[0])}`);
  const portArg = a.options.get('port');
  if (portArg !== undefined && verb !== 'install') throw new UsageError(`--port goes with install`);
  if (a.options.has('dry-run') && verb === 'status') throw new UsageError(`--dry-run goes with install or uninstall`);
  let port: number | undefined;
  if (portArg !== undefined) {
    if (portArg === true || !/^\d+$/.test(portArg) || Number(portArg) < 1 || Number(portArg) > 65535) throw new UsageError(`--port must be a port number 1-65535, got ${JSON.stringify(portArg)}`);
    port = Number(portArg);
  }
  if (process.platform !== 'linux' && process.platform !== 'darwin') throw new UsageError(`service: ${process.platform} has neither systemd nor launchd; run 'termsupervisor daemon' from your own service manager`);
  const ctx: ServiceContext = {
    env: process.env,
    platform: process.platform as Platform,
    out: (l) => void process.stdout.write(l + '\n'),
    err: (l) => void process.stderr.write(l + '\n'),
  };
  const dryRun = a.options.has('dry-run');
  if (verb === 'install') return installService(ctx, { dryRun, ...(port !== undefined && { port }) });
  if (verb === 'uninstall') return uninstallService(ctx, { dryRun });
  return serviceStatus(ctx);
}
