// Config for a CLI command: --config PATH, else the user's XDG config file if present, else the defaults.
import { ConfigError, loadConfig, type Config } from '../config/config.js';
import { userConfigPath } from '../config/paths.js';

export function configFor(path: string | true | undefined): Config {
  if (path === true) throw new Error('--config needs a path');
  return loadConfig(path ? { path } : { defaultUserPath: userConfigPath() });
}

/** For `run`, whose command must start whatever the config says: a config with mistakes is reported and the
 * defaults are used instead (the pane is still watched), rather than refusing to start the person's program. */
export function configOrDefaults(path: string | true | undefined): { cfg: Config; problems: string[] | null } {
  try {
    return { cfg: configFor(path), problems: null };
  } catch (e) {
    if (!(e instanceof ConfigError)) throw e;
    return { cfg: loadConfig({}), problems: e.problems };
  }
}
