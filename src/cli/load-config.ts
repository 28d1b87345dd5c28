// Config for a CLI command: --config PATH, else the user's XDG config file if present, else the defaults.
import { loadConfig, type Config } from '../config/config.js';
import { userConfigPath } from '../config/paths.js';

export function configFor(path: string | true | undefined): Config {
  if (path === true) throw new Error('--config needs a path');
  return loadConfig(path ? { path } : { defaultUserPath: userConfigPath() });
}
