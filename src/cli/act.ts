// The pane actions from a shell: `send PANE TEXT`, `answer PANE OPTION`, `interrupt PANE`, `ack PANE|--all`,
// `focus PANE`. Same safety and history as the dashboard: each fetches the pane, acts on the revision of the screen
// it read (or the one given with --rev, read earlier with `status --json`), names itself `cli`, and says plainly what
// happened; the daemon refusing a changed pane is its own exit status, so a script can tell "look again" apart.
import type { PaneView } from '../web/api-types.js';
import { parseArgs, UsageError } from './args.js';
import { DAEMON_OPTION_HELP, DaemonUnavailable, daemonJson, daemonTarget } from './daemon-client.js';
import { paneAction, type ActOutcome } from './pane-actions.js';
import { printable, printableJson, printableLines } from './printable.js';
import { optionsLine, pickOption } from './question-pick.js';
import { resolvePane } from './wait.js';

export const ACT_EXIT = { done: 0, daemon: 1, usage: 2, refused: 3, notShown: 4 } as const;

const COMMON = `  --json    print the daemon's answer as JSON (the action and the pane; on a refusal, the fresh pane)
${DAEMON_OPTION_HELP}
PANE is a pane id from \`termsupervisor status\`, or a pane's name when only one live pane has it.
Exit status:
  0  done
  1  no daemon answers (or it failed)
  2  usage, no such pane, or an option the question does not offer
  3  refused: the pane changed since it was read (stale revision: look again) or is not in a state that takes
     this action; the pane's state now is printed`;

const REV = `  --rev N   act only if the pane still shows screen revision N (PaneView.rev, from \`status --json\`);
            default: the revision read just before sending`;

export type ActCommand = 'send' | 'answer' | 'interrupt' | 'ack' | 'focus';

export const ACT_USAGE: Record<ActCommand, string> = {
  send: `usage: termsupervisor send PANE TEXT [--rev N] [--json] [--daemon URL]

Types TEXT into the pane and presses Enter, as a prompt — only when the pane is at rest (DONE, FAILED or IDLE).
${REV}
${COMMON}
examples:
  termsupervisor send api "now run the linter"
  termsupervisor send api "fix it" --json | jq .action.keys`,
  answer: `usage: termsupervisor answer PANE OPTION [--rev N] [--json] [--daemon URL]

Answers the question a WAITING_APPROVAL pane asks: OPTION is one of its options' ids as \`status --json\` lists
them (question.options: '1', '2', 'y', 'n', 'enter'); y and n also pick the menu's "Yes" / "No" line. Sends that
option's own keys (a digit, arrows then Enter, y + Enter: what the program takes).
${REV}
${COMMON}
examples:
  termsupervisor answer review 2
  termsupervisor answer build y --rev 41      # only if it still shows the screen read as revision 41`,
  interrupt: `usage: termsupervisor interrupt PANE [--rev N] [--json] [--daemon URL]

Interrupts a running or waiting pane: Esc for an agent, Ctrl-C for a shell or another program.
${REV}
${COMMON}
example:
  termsupervisor interrupt api`,
  ack: `usage: termsupervisor ack PANE|--all [--json] [--daemon URL]

Acknowledges a pane (DONE, FAILED or WAITING_APPROVAL → IDLE: you have seen it), or with --all every live pane
that needs you except those waiting for an answer (a question is answered, or acknowledged by name).
${COMMON}
examples:
  termsupervisor ack api
  termsupervisor ack --all`,
  focus: `usage: termsupervisor focus PANE [--json] [--daemon URL]

Jumps to the pane: a tmux pane is selected in your attached tmux client (switching session if needed), an iTerm2
session is activated; a \`run\` pane inside tmux is shown through its tmux pane; one elsewhere cannot be shown
from here, so where it runs is printed (host, tty, pid).
\`focus --next\` jumps to the next pane that needs you, in urgency order (termsupervisor focus --next --help).
${COMMON}
  4  the pane could not be shown (no tmux client attached, a \`run\` pane outside tmux): why, or where it runs,
     is printed
example:
  termsupervisor focus work:0.1`,
};

export async function actCommand(cmd: ActCommand, argv: string[], out: NodeJS.WritableStream = process.stdout): Promise<number> {
  const usage = ACT_USAGE[cmd];
  const takesRev = cmd === 'send' || cmd === 'answer' || cmd === 'interrupt';
  const a = parseArgs(argv, { values: ['daemon', ...(takesRev ? ['rev'] : [])], flags: ['help', 'json', ...(cmd === 'ack' ? ['all'] : [])] });
  if (a.options.has('help')) return void out.write(usage + '\n'), 0;
  const want = cmd === 'send' || cmd === 'answer' ? 2 : a.options.has('all') ? 0 : 1;
  if (a.positional.length !== want) throw new UsageError(`${cmd} needs ${['no pane with --all', 'a pane', cmd === 'send' ? 'a pane and the text' : 'a pane and an option'][want]}\n\n${usage}`);
  const rev = revOption(a.options.get('rev'));
  const json = a.options.has('json');
  const target = daemonTarget(a.options.get('daemon'));
  const say = (s: string) => process.stderr.write(`termsupervisor ${cmd}: ${printableLines(s)}\n`);
  const panes = await daemonJson<PaneView[]>(target, '/api/panes');

  if (cmd === 'ack' && a.options.has('all')) {
    // A question is not "seen" by a sweep: acking it would only hide it (it asks again at once, its waiting time
    // reset). --all acknowledges finished, failed and stalled turns; a question is answered, or acked by name.
    const due = panes.filter((p) => p.alive && p.needsYou && p.state !== 'WAITING_APPROVAL');
    const asking = panes.filter((p) => p.alive && p.state === 'WAITING_APPROVAL');
    const results: unknown[] = [];
    let code: number = ACT_EXIT.done;
    for (const p of due) {
      const r = await paneAction(target, 'cli', p.id, 'ack');
      results.push(r.body);
      code = Math.max(code, report(cmd, p, r, json ? null : out, say));
    }
    if (json) out.write(printableJson(results, 2) + '\n');
    else if (!due.length) out.write(asking.length ? 'no finished turn to acknowledge\n' : 'no pane needs you\n');
    if (!json && asking.length) out.write(`left ${asking.length} waiting for an answer (${asking.map((p) => printable(p.name)).join(', ')}): \`termsupervisor answer PANE OPTION\`, or \`ack PANE\` one by name\n`);
    return code;
  }

  const found = resolvePane(a.positional[0]!, panes);
  if (typeof found === 'string') return say(found), ACT_EXIT.usage;
  const pane = found;
  let body: object = {};
  const revNow = rev ?? pane.rev ?? 0;
  if (cmd === 'send') {
    const text = a.positional[1]!;
    if (!text.trim()) throw new UsageError('send needs some text');
    body = { text, rev: revNow };
  } else if (cmd === 'answer') {
    const asked = a.positional[1]!;
    // The id as given, or y/n meaning the menu's Yes/No line; an unknown one goes as given: the daemon says no.
    const option = pickOption(pane.question, asked);
    body = { option: option?.id ?? asked, rev: revNow };
  } else if (cmd === 'interrupt') body = { rev: revNow };
  const r = await paneAction(target, 'cli', pane.id, cmd === 'send' ? 'reply' : cmd, body);
  if (json) out.write(printableJson(r.body, 2) + '\n');
  return report(cmd, pane, r, json ? null : out, say);
}

/** Says what became of one action (stdout when done, stderr when refused); its exit status. */
function report(cmd: string, pane: PaneView, r: ActOutcome, out: NodeJS.WritableStream | null, say: (s: string) => void): number {
  const name = `${printable(pane.name)} [${printable(pane.id)}]`;
  if (r.ok) {
    const keys = r.action?.keys ? ` keys: ${printable(r.action.keys)}` : '';
    const detail = r.action?.detail ? ` (${printable(r.action.detail)})` : '';
    const what = cmd === 'focus' ? (r.how ? `${r.focused === false ? 'cannot show' : 'showing'} ${name}: ${printable(r.how)}` : `showing ${name}`) : `${PAST[cmd] ?? cmd} ${name}${detail}${keys}`;
    out?.write(what + '\n');
    // A jump that could not happen is not "done": a script (or a key binding) must be able to tell.
    return cmd === 'focus' && r.focused === false ? ACT_EXIT.notShown : ACT_EXIT.done;
  }
  const now = r.pane ? `: ${r.pane.alive ? r.pane.state : 'closed'}${r.pane.rev !== undefined ? ` (rev ${r.pane.rev})` : ''}` : '';
  if (r.status === 409 || r.status === 503) {
    const offered = r.pane?.question ? `\n  it asks: ${r.pane.question.text}\n  options: ${optionsLine(r.pane.question)}` : '';
    say(`${name}: refused: ${r.error}${now}${offered}`);
    return ACT_EXIT.refused;
  }
  if (r.status === 400 || r.status === 404) {
    const q = (r.pane ?? pane).question;
    say(`${name}: ${r.error}${q ? `\n  options: ${optionsLine(q)}` : ''}`);
    return ACT_EXIT.usage;
  }
  if (r.status === 401 || r.status === 403) throw new DaemonUnavailable(`the daemon refused: HTTP ${r.status}: ${r.error} (a daemon of another user or config dir?)`);
  say(`${name}: the daemon failed: HTTP ${r.status}: ${r.error}`);
  return ACT_EXIT.daemon;
}

const PAST: Record<string, string> = { send: 'sent to', answer: 'answered', interrupt: 'interrupted', ack: 'acknowledged' };

function revOption(v: string | true | undefined): number | null {
  if (v === undefined) return null;
  if (v === true || !/^\d+$/.test(v)) throw new UsageError(`--rev must be a screen revision (a whole number, PaneView.rev), got ${JSON.stringify(v)}`);
  return Number(v);
}
