// Aider (Aider-AI/aider, Python, prompt_toolkit + rich; commit 5dc9490). What it draws (docs/agents.md, "Aider"):
// a line-oriented program on the main screen, no title; the start-up banner "Aider v<version>" (coders/base_coder.py);
// before each prompt a full-width rule, then the prompt "> " ("ask> ", "architect> " … in other modes;
// io.py get_input); while it waits for the model, after 0.5 s, a scanner "░█        Waiting for <model>" redrawn in
// place every 0.15 s with the cursor hidden (waiting.py WaitingSpinner, Spinner); the answer streamed as markdown;
// "Tokens: 2.4k sent, 120 received. Cost: $0.0072 message, $0.0072 session." after it (base_coder.py); questions
// as "<question> (Y)es/(N)o/(D)on't ask again [Yes]: " read on the same line (io.py confirm_ask), e.g. "Run shell
// command?" then "Add command output to the chat?" (base_coder.py handle_shell_commands); errors printed in red
// (io.py tool_error) before the prompt comes back.
import { Script, dim, fg } from '../screen-script.mjs';

const COLS = 100;
const ROWS = 30;
const FRAMES = ['#=        ', '=#        ', ' =#       ', '  =#      ', '   =#     ', '    =#    ', '     =#   ', '      =#  ', '       =# ', '        =#', '        #=', '       #= ', '      #=  ', '     #=   ', '    #=    ', '   #=     ', '  #=      ', ' #=       '].map((f) => f.replace(/=/g, '░').replace(/#/g, '█'));
const RULE = fg(34, '─'.repeat(COLS));

function session(name, scenario, body) {
  const s = new Script({ cols: COLS, rows: ROWS, source: 'aider (Aider-AI/aider 5dc9490, frame script)', scenario, seed: 23 });
  s.at(0.8);
  s.print(['Aider v0.86.1', 'Main model: gpt-4o with diff edit format', 'Weak model: gpt-4o-mini', 'Git repo: .git with 12 files', 'Repo-map: using 1024 tokens, auto refresh']);
  const prompt = (text = '') => s.live([RULE, `${fg(34, '>')} ${text}`]);
  s.wait(0.2);
  prompt();
  body(s, prompt);
  return { name, script: s };
}

/** The person types at the prompt and presses Enter: the line stays, the cursor goes to the next row. */
function submit(s, prompt, text, at = 3) {
  s.at(at);
  const enter = s.type(text, (typed) => prompt(typed));
  s.wait(0.01);
  s.commit();
  return enter;
}

/** The waiting scanner: visible 0.5 s after the request, a frame every 0.15 s, drawn with \r in place. */
function waiting(s, seconds, model = 'gpt-4o') {
  s.wait(0.5);
  const n = Math.round((seconds - 0.5) / 0.15);
  for (let i = 0; i < n; i++) {
    const f = FRAMES[i % FRAMES.length];
    const line = `${f} Waiting for ${model}`;
    const back = line.length - f.indexOf('█');
    s.out(`${i === 0 ? '\x1b[?25l' : ''}\r${line}${'\b'.repeat(back)}`);
    s.wait(0.15);
  }
  s.out(`\r${' '.repeat(FRAMES[0].length + 13 + model.length)}\r\x1b[?25h`);
}

function stream(s, lines, gap = 0.15) {
  for (const l of lines) {
    s.out(`${l}\r\n`);
    s.wait(gap);
  }
}

function tokens(s) {
  s.out(`\r\n${dim('Tokens: 2.4k sent, 120 received. Cost: $0.0072 message, $0.0072 session.')}\r\n`);
}

export const scenarios = [
  session('aider-turn', 'One prompt; 2.5 s of the "Waiting for gpt-4o" scanner; the answer streams in 3 lines; the Tokens line, the rule and "> " back; 6 s rest.', (s, prompt) => {
    submit(s, prompt, 'what does utils.py do');
    waiting(s, 2.5);
    stream(s, ['utils.py holds the small helpers: path handling,', 'retry with back-off, and the colour codes used in', 'the console output.']);
    s.truth('turn_complete', { source: 'script: the answer finished streaming' });
    tokens(s);
    s.wait(0.05);
    prompt();
    s.wait(6);
  }),
  session('aider-approval', 'One prompt; 2 s waiting; an answer proposing a shell command; "Run shell command? (Y)es/(N)o/(D)on\'t ask again [Yes]:" waits 3 s; y Enter; the command runs 1 s; "Add command output to the chat?" waits 3 s; n Enter; the prompt back; 6 s rest.', (s, prompt) => {
    submit(s, prompt, 'run the test suite');
    waiting(s, 2);
    stream(s, ['Run the tests with:', '', '```bash', 'pytest -q', '```']);
    tokens(s);
    s.out('\r\npytest -q\r\n');
    s.truth('approval_requested', { source: 'script: confirm_ask "Run shell command?"' });
    s.out(`${fg(34, "Run shell command? (Y)es/(N)o/(D)on't ask again [Yes]: ")}`);
    s.wait(3);
    s.input('y');
    s.wait(0.01);
    s.out('y');
    s.wait(0.2);
    s.answer('\r', 'approval_given', 'y Enter');
    s.wait(0.02);
    s.out('\r\n\r\nRunning pytest -q\r\n');
    s.wait(1);
    s.out('........                                                                 [100%]\r\n8 passed in 0.41s\r\n');
    s.truth('approval_requested', { source: 'script: confirm_ask "Add command output to the chat?"' });
    s.out(`${fg(34, "Add command output to the chat? (Y)es/(N)o/(D)on't ask again [Yes]: ")}`);
    s.wait(3);
    s.input('n');
    s.wait(0.01);
    s.out('n');
    s.wait(0.2);
    s.answer('\r', 'approval_given', 'n Enter');
    s.wait(0.03);
    s.out('\r\n');
    s.truth('turn_complete', { source: 'script: back at the prompt' });
    prompt();
    s.wait(6);
  }),
  session('aider-turns', 'Two prompts: each 1.5-2 s of the scanner, a short answer, the Tokens line and the prompt back; 3 s between them; 6 s rest.', (s, prompt) => {
    submit(s, prompt, 'list the public functions');
    waiting(s, 2);
    stream(s, ['load_config, save_config and diff_configs.']);
    s.truth('turn_complete', { source: 'script: the answer finished streaming' });
    tokens(s);
    s.wait(0.05);
    prompt();
    submit(s, prompt, 'which one is unused', s.t + 3);
    waiting(s, 1.5);
    stream(s, ['diff_configs has no caller.']);
    s.truth('turn_complete', { source: 'script: the answer finished streaming' });
    tokens(s);
    s.wait(0.05);
    prompt();
    s.wait(6);
  }),
  session('aider-error', 'One prompt; 1.5 s waiting; the provider refuses the key: the error in red, the prompt back; 6 s rest.', (s, prompt) => {
    submit(s, prompt, 'rename the config module');
    waiting(s, 1.5);
    s.truth('turn_failed', { source: 'script: the provider refused the request', note: 'authentication error' });
    s.out(`${fg(196, 'litellm.AuthenticationError: AuthenticationError: OpenAIException - Incorrect API key provided')}\r\n`);
    s.out(`${fg(196, 'The API provider is not able to authenticate you. Check your API key.')}\r\n`);
    s.wait(0.05);
    prompt();
    s.wait(6);
  }),
];
