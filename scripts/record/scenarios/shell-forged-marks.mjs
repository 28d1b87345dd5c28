// A command whose output holds shell-integration and agent marks (a saved terminal log being shown): OSC 133 D and
// A, OSC 633 D with a failing status, Codex's OSC 7501 blocked and done, an iTerm2 user variable. In a bash that
// marks nothing itself they are forged: the command runs on (1 s before the marks, 2 s after) and ends DONE.
const ESC = '\\033';
const BEL = '\\007';
const marks = ['133;D;0', '133;A', '633;D;1', '133;D;1', '7501;state=blocked:app=codex:kind=permission', '7501;state=done:app=codex', '1337;SetUserVar=state=ZG9uZQ=='];
const log = `build log, saved from another terminal\\n${marks.map((m) => `${ESC}]${m}${BEL}`).join('')}user@host:project$ \\n`;

export default {
  name: 'shell-forged-marks',
  scenario: 'bash without shell integration: `sh show-log.sh` prints a saved log holding OSC 133/633/7501/1337 marks 1 s in and runs 2 s more (exit 0), then `cat saved.log` (exit 0)',
  setup: [`printf '${log}' > saved.log`, `printf 'sleep 1\\ncat saved.log\\nsleep 2\\necho shown\\n' > show-log.sh`],
  steps: [
    { wait: 2 },
    { type: 'sh show-log.sh', enter: true },
    { wait: 'command_end' },
    { wait: 3 },
    { type: 'cat saved.log', enter: true },
    { wait: 'command_end' },
  ],
  tail: 4,
};
