// The service definitions `termsupervisor service install` writes, as pure functions of a ServiceSpec: a systemd
// user unit (Linux) and a launchd agent plist (macOS). Tests read the text these return.

/** What the service runs, with what environment, logging where. All paths absolute. */
export interface ServiceSpec {
  /** The node binary (absolute: a service manager does not search the person's PATH, and nvm's node is not on it). */
  node: string;
  /** The installed bin/termsupervisor. */
  bin: string;
  /** Its arguments: `daemon` and any options. */
  args: string[];
  /** Environment the daemon gets, so it uses the same XDG dirs (token, runtime file, logs) as the person's CLI. */
  env: Record<string, string>;
  /** Variables the service manager would set that the person's shell does not have (systemd only). */
  unset: string[];
  /** stdout and stderr are appended here (the daemon's own log, daemon.log, it writes itself). */
  logFile: string;
}

export const SYSTEMD_UNIT_NAME = 'termsupervisor.service';
export const LAUNCHD_LABEL = 'io.github.termsupervisor.daemon';

/** The first line of every file we write: `uninstall` removes a file only when it carries it. */
export const WRITTEN_BY = 'Written by `termsupervisor service install`; `termsupervisor service uninstall` removes it.';

/** Exit status of the daemon for a usage or configuration error (port in use, bad config): restarting cannot help. */
const EXIT_USAGE = 2;

export function systemdUnit(spec: ServiceSpec): string {
  if (/\s/.test(spec.logFile)) throw new Error(`the log file path ${JSON.stringify(spec.logFile)} has white space, which a systemd unit cannot append to`);
  const exec = [spec.node, spec.bin, ...spec.args].map(systemdWord).join(' ');
  const env = Object.entries(spec.env).map(([k, v]) => `Environment=${systemdWord(`${k}=${v}`)}`);
  return [
    `# ${WRITTEN_BY}`,
    '[Unit]',
    'Description=termsupervisor daemon: watches terminal panes running AI coding agents and shells',
    // Five failed starts within a minute and systemd stops trying (a crash loop would otherwise never end).
    'StartLimitIntervalSec=60',
    'StartLimitBurst=5',
    '',
    '[Service]',
    'Type=simple',
    `ExecStart=${exec}`,
    'Restart=on-failure',
    'RestartSec=2',
    `RestartPreventExitStatus=${EXIT_USAGE}`,
    ...env,
    ...(spec.unset.length ? [`UnsetEnvironment=${spec.unset.join(' ')}`] : []),
    `StandardOutput=append:${systemdEscape(spec.logFile)}`,
    `StandardError=append:${systemdEscape(spec.logFile)}`,
    '',
    '[Install]',
    'WantedBy=default.target',
    '',
  ].join('\n');
}

export function launchdPlist(spec: ServiceSpec): string {
  const strings = (xs: string[], indent: string) => xs.map((x) => `${indent}<string>${xml(x)}</string>`);
  const env = Object.entries(spec.env).flatMap(([k, v]) => [`    <key>${xml(k)}</key>`, `    <string>${xml(v)}</string>`]);
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">',
    `<!-- ${xml(WRITTEN_BY)} -->`,
    '<plist version="1.0">',
    '<dict>',
    '  <key>Label</key>',
    `  <string>${LAUNCHD_LABEL}</string>`,
    '  <key>ProgramArguments</key>',
    '  <array>',
    ...strings([spec.node, spec.bin, ...spec.args], '    '),
    '  </array>',
    '  <key>EnvironmentVariables</key>',
    '  <dict>',
    ...env,
    '  </dict>',
    '  <key>RunAtLoad</key>',
    '  <true/>',
    // Restarted when it dies, not when it stops cleanly (as systemd's Restart=on-failure).
    '  <key>KeepAlive</key>',
    '  <dict>',
    '    <key>SuccessfulExit</key>',
    '    <false/>',
    '  </dict>',
    '  <key>ThrottleInterval</key>',
    '  <integer>10</integer>',
    '  <key>StandardOutPath</key>',
    `  <string>${xml(spec.logFile)}</string>`,
    '  <key>StandardErrorPath</key>',
    `  <string>${xml(spec.logFile)}</string>`,
    '</dict>',
    '</plist>',
    '',
  ].join('\n');
}

/** The program and arguments a unit or plist runs, read back (for `service status`). */
export function execOf(text: string): string[] | null {
  const plist = /<key>ProgramArguments<\/key>\s*<array>([\s\S]*?)<\/array>/.exec(text);
  if (plist) return [...plist[1]!.matchAll(/<string>([\s\S]*?)<\/string>/g)].map((m) => unxml(m[1]!));
  const line = /^ExecStart=(.*)$/m.exec(text);
  if (!line) return null;
  return [...line[1]!.matchAll(/"((?:[^"\\]|\\.)*)"|(\S+)/g)].map((m) => (m[1] !== undefined ? m[1].replace(/\\(.)/g, '$1') : m[2]!).replace(/%%/g, '%').replace(/\$\$/g, '$'));
}

/** One word of a systemd command line or assignment: quoted when it needs to be; % and $ doubled (specifiers). */
function systemdWord(s: string): string {
  const escaped = systemdEscape(s);
  return /^[A-Za-z0-9_@%+=:,./$-]+$/.test(escaped) ? escaped : `"${escaped.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
}

function systemdEscape(s: string): string {
  return s.replace(/%/g, '%%').replace(/\$/g, '$$$$');
}

function xml(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

function unxml(s: string): string {
  return s.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"').replace(/&amp;/g, '&');
}
