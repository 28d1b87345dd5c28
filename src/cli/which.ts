// Finds a command the way execvp will, so `run` can say "command not found" itself (exit 127, like a shell)
// instead of letting the forked child print a raw execvp error into the pane.
import { accessSync, constants, statSync } from 'node:fs';
import { delimiter, join } from 'node:path';

export function findExecutable(cmd: string, path = process.env['PATH'] ?? ''): string | null {
  const candidates = cmd.includes('/') ? [cmd] : path.split(delimiter).map((dir) => join(dir || '.', cmd));
  for (const c of candidates) {
    try {
      if (!statSync(c).isFile()) continue;
      accessSync(c, constants.X_OK);
      return c;
    } catch {
      // not here
    }
  }
  return null;
}
