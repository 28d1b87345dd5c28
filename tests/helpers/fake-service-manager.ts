// Stand-ins for systemctl and launchctl (no systemd or launchd runs in CI): real executables on a private PATH that
// log each call and keep the unit's enabled/active (loaded/running) state in files, answering as the real ones do.
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const SYSTEMCTL = `#!/bin/sh
echo "$*" >> "$FAKE_SM_DIR/calls"
case "$*" in
  *is-enabled*) if [ -f "$FAKE_SM_DIR/enabled" ]; then echo enabled; exit 0; else echo disabled; exit 1; fi ;;
  *is-active*) if [ -f "$FAKE_SM_DIR/active" ]; then echo active; exit 0; else echo inactive; exit 3; fi ;;
  *disable*) rm -f "$FAKE_SM_DIR/enabled" "$FAKE_SM_DIR/active" ;;
  *" enable "*) : > "$FAKE_SM_DIR/enabled" ;;
  *start*) : > "$FAKE_SM_DIR/active" ;;
esac
exit 0
`;

const LAUNCHCTL = `#!/bin/sh
echo "$*" >> "$FAKE_SM_DIR/calls"
case "$1" in
  print) if [ -f "$FAKE_SM_DIR/loaded" ]; then printf '%s = {\\n\\tstate = running\\n\\tpid = 4242\\n}\\n' "$2"; exit 0; else echo "Could not find service" >&2; exit 113; fi ;;
  bootstrap) : > "$FAKE_SM_DIR/loaded" ;;
  bootout) rm -f "$FAKE_SM_DIR/loaded" ;;
esac
exit 0
`;

export interface FakeServiceManager {
  /** Put this first on PATH; FAKE_SM_DIR must be in the environment too (env() gives both). */
  bin: string;
  env(base: Record<string, string>): Record<string, string>;
  /** The calls so far, one string of arguments each. */
  calls(): string[];
  /** Forget the calls so far. */
  reset(): void;
}

export function fakeServiceManager(dir: string, tool: 'systemctl' | 'launchctl'): FakeServiceManager {
  const bin = join(dir, 'fake-bin');
  mkdirSync(bin, { recursive: true });
  const file = join(bin, tool);
  writeFileSync(file, tool === 'systemctl' ? SYSTEMCTL : LAUNCHCTL);
  chmodSync(file, 0o755);
  const callsFile = join(dir, 'calls');
  return {
    bin,
    env: (base) => ({ ...base, PATH: `${bin}:/usr/bin:/bin`, FAKE_SM_DIR: dir }),
    calls: () => (existsSync(callsFile) ? readFileSync(callsFile, 'utf8').split('\n').filter(Boolean) : []),
    reset: () => writeFileSync(callsFile, ''),
  };
}
