// A scratch home for one recording of a real agent CLI: its settings pointed at the local fake backend (update
// checks, analytics and trust prompts off), termsupervisor's hooks installed with `termsupervisor hooks install`, and
// the hook command swapped for a recorder that notes each call (time, event argument, payload) in a log file.
import { execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** Where `npm install --prefix /work/tools/<agent>` put the CLIs (override with TS_CODEX_BIN / TS_GEMINI_BIN). */
export const AGENT_BIN = {
  codex: process.env.TS_CODEX_BIN ?? '/work/tools/codex/node_modules/.bin/codex',
  gemini: process.env.TS_GEMINI_BIN ?? '/work/tools/gemini/node_modules/.bin/gemini',
  qwen: process.env.TS_QWEN_BIN ?? '/work/tools/qwen/node_modules/.bin/qwen',
  // the platform binary itself: the npm wrapper's postinstall (which links it) does not run under npm 11
  opencode: process.env.TS_OPENCODE_BIN ?? '/work/tools/opencode/node_modules/opencode-linux-x64/bin/opencode',
  kilo: process.env.TS_KILO_BIN ?? '/work/tools/kilo/node_modules/@kilocode/cli-linux-x64/bin/kilo',
  // @vibe-kit/grok-cli: a Node script (its `--version` says "1.0.1" whatever the package: read its package.json)
  grok: process.env.TS_GROK_BIN ?? '/work/tools/grok/node_modules/.bin/grok',
};

/** Agents recorded against an OpenAI-compatible Chat Completions endpoint (scripts/record/agents/chat-backend.mjs). */
export const CHAT_AGENTS = new Set(['opencode', 'kilo', 'qwen', 'grok']);
/** opencode and its fork Kilo Code CLI: the same config under each one's name. */
const OPENCODE_FAMILY = new Set(['opencode', 'kilo']);

/**
 * opencode and its fork Kilo Code CLI: a provider on the fake endpoint (the bundled openai-compatible SDK), its one
 * model the default, `bash: "ask"` (it asks before running a command), sharing, autoupdate and the models.dev
 * catalogue off. The same settings under each one's own name: ~/.config/opencode/opencode.json, ~/.config/kilo/kilo.json.
 */
function opencodeConfig(backendUrl) {
  return {
    $schema: 'https://opencode.ai/config.json',
    provider: {
      fake: {
        npm: '@ai-sdk/openai-compatible',
        name: 'Fake',
        options: { baseURL: backendUrl, apiKey: 'sk-fake' },
        models: { 'fake-model': { name: 'Fake Model', tool_call: true, limit: { context: 128000, output: 8192 } } },
      },
    },
    model: 'fake/fake-model',
    small_model: 'fake/fake-model',
    autoupdate: false,
    share: 'disabled',
    permission: { bash: 'ask' },
  };
}

/**
 * The hook recorder: installed as the termsupervisor program the hooks run (`hooks install --command`), so the
 * agent calls it exactly as it would call `termsupervisor hook <agent> [event]`. One line per call: epoch seconds
 * (taken when it starts, the same clock as the recorder's), agent, event argument, payload (base64). Like the real
 * hook command it reads stdin only until a whole JSON object has arrived (Gemini CLI keeps it open and waits for the
 * hook to exit before it goes on), prints nothing (Gemini parses a hook's stdout) and is a Node process, as costly
 * to start as the real one.
 */
function hookRecorder(log) {
  return `#!${process.execPath}
const t = Date.now() / 1000;
const fs = require('node:fs');
const [, , , agent, ...rest] = process.argv;
const write = (event, payload) => {
  fs.appendFileSync(${JSON.stringify(log)}, [t.toFixed(6), agent, event || '-', Buffer.from(payload).toString('base64')].join('\\t') + '\\n');
  process.exit(0);
};
if (agent === 'codex') write('', rest[rest.length - 1] ?? '');
let text = '';
const done = () => write(rest[0] ?? '', text);
setTimeout(done, ${HOOK_STDIN_MAX_MS});
process.stdin.setEncoding('utf8');
process.stdin.on('data', (d) => {
  text += d;
  try {
    JSON.parse(text);
    done();
  } catch {}
});
process.stdin.on('end', done);
`;
}

/** As `termsupervisor hook` (src/cli/hook.ts HOOK_STDIN_TIMEOUT_MS): stdin is read at most this long. */
const HOOK_STDIN_MAX_MS = 500;

/** Writes the agent's settings under `home`, installs the hooks (unless `hooks` is false: a recording of the screen
 * alone); `settings`: top-level sections merged into the agent's settings (Qwen Code); returns the environment to
 * run it with. */
export function setupAgent(agent, { root, scratch, home, project, backendUrl, hooks = true, settings = {} }) {
  const bin = join(scratch, 'bin');
  mkdirSync(bin, { recursive: true });
  const log = join(scratch, 'hooks.log');
  writeFileSync(log, '');
  // The name must start with "termsupervisor": `hooks install` and `hooks status` recognise their own hook by it.
  const shim = join(bin, 'termsupervisor-hook-recorder');
  writeFileSync(shim, hookRecorder(log));
  chmodSync(shim, 0o755);
  const env = { HOME: home, XDG_CONFIG_HOME: join(home, '.config'), XDG_STATE_HOME: join(home, '.local', 'state'), XDG_RUNTIME_DIR: join(scratch, 'run') };
  mkdirSync(env.XDG_RUNTIME_DIR, { recursive: true, mode: 0o700 });
  if (agent === 'codex') {
    const codexHome = join(home, '.codex');
    mkdirSync(codexHome, { recursive: true });
    writeFileSync(
      join(codexHome, 'config.toml'),
      [
        'model = "gpt-5.1-codex"',
        'model_provider = "fake"',
        // Codex asks before running a command the model wants run outside the sandbox.
        'approval_policy = "on-request"',
        'sandbox_mode = "read-only"',
        'check_for_update_on_startup = false',
        '',
        '[analytics]',
        'enabled = false',
        '',
        '[model_providers.fake]',
        'name = "fake"',
        `base_url = ${JSON.stringify(backendUrl)}`,
        'env_key = "FAKE_OPENAI_API_KEY"',
        'wire_api = "responses"',
        '',
        `[projects.${JSON.stringify(project)}]`,
        'trust_level = "trusted"',
        '',
      ].join('\n'),
    );
    Object.assign(env, { CODEX_HOME: codexHome, FAKE_OPENAI_API_KEY: 'sk-fake' });
  } else if (OPENCODE_FAMILY.has(agent)) {
    const P = agent === 'kilo' ? 'KILO' : 'OPENCODE';
    const dir = join(env.XDG_CONFIG_HOME, agent);
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, `${agent}.json`), JSON.stringify(opencodeConfig(backendUrl), null, 2) + '\n');
    for (const k of ['DISABLE_AUTOUPDATE', 'DISABLE_MODELS_FETCH', 'DISABLE_SHARE', 'DISABLE_DEFAULT_PLUGINS', 'DISABLE_LSP_DOWNLOAD', 'DISABLE_CLAUDE_CODE', 'DISABLE_EXTERNAL_SKILLS']) env[`${P}_${k}`] = 'true';
    if (agent === 'kilo') Object.assign(env, { KILO_TELEMETRY_LEVEL: 'off', KILO_DISABLE_SESSION_INGEST: 'true', KILO_DISABLE_PRESENCE: 'true', KILO_DISABLE_CODEBASE_INDEXING: 'true' });
    env.XDG_DATA_HOME = join(home, '.local', 'share');
    env.XDG_CACHE_HOME = join(home, '.cache');
  } else if (agent === 'qwen') {
    Object.assign(env, qwenSettings(home, backendUrl, settings));
  } else if (agent === 'grok') {
    Object.assign(env, grokSettings(home, project, backendUrl));
  } else {
    const dir = join(home, '.gemini');
    mkdirSync(dir, { recursive: true });
    const settings = {
      security: { auth: { selectedType: 'gemini-api-key' }, folderTrust: { enabled: false } },
      general: { enableAutoUpdate: false, enableAutoUpdateNotification: false },
      privacy: { usageStatisticsEnabled: false },
      telemetry: { enabled: false },
    };
    writeFileSync(join(dir, 'settings.json'), JSON.stringify(settings, null, 2) + '\n');
    Object.assign(env, { GEMINI_API_KEY: 'fake-key', GOOGLE_GEMINI_BASE_URL: backendUrl });
  }
  // opencode and Kilo: `hooks install` writes our plugin into <config>/<agent>/plugin/ (XDG_CONFIG_HOME is under home)
  if (hooks) execFileSync(join(root, 'bin', 'termsupervisor'), ['hooks', 'install', agent, '--home', home, '--command', shim], { env: { ...process.env, ...env }, stdio: ['ignore', 'ignore', 'inherit'] });
  return { env, log };
}

/** Qwen Code (a Gemini CLI fork) against a Chat Completions backend: settings in ~/.qwen/settings.json, the
 * endpoint in the OpenAI environment; update checks, usage statistics, telemetry, the folder-trust prompt, the
 * API preconnect, the welcome-back / tips screens and the background memory agent off. Approval mode stays "default": it asks before a command. */
function qwenSettings(home, backendUrl, extra = {}) {
  const dir = join(home, '.qwen');
  mkdirSync(dir, { recursive: true });
  const settings = {
    security: { auth: { selectedType: 'openai' }, folderTrust: { enabled: false } },
    model: { name: 'fake-model' },
    general: { enableAutoUpdate: false, disableAutoUpdate: true, disableUpdateNag: true, checkForUpdates: false },
    privacy: { usageStatisticsEnabled: false },
    telemetry: { enabled: false },
    // follow-up suggestions are a request of their own after each turn (with tools); feedback asks the person
    ui: { hideTips: true, enableWelcomeBack: false, enableFollowupSuggestions: false, enableUserFeedback: false },
    tools: { approvalMode: 'default' },
    // its background memory agent sends tool-carrying requests after each turn: not the person's conversation
    memory: { enableManagedAutoMemory: false, enableManagedAutoDream: false },
  };
  for (const [k, v] of Object.entries(extra)) settings[k] = { ...(settings[k] ?? {}), ...v };
  mkdirSync(join(dir, 'extensions'), { recursive: true });
  writeFileSync(join(dir, 'settings.json'), JSON.stringify(settings, null, 2) + '\n');
  return {
    OPENAI_API_KEY: 'sk-fake',
    OPENAI_BASE_URL: backendUrl,
    OPENAI_MODEL: 'fake-model',
    QWEN_USAGE_STATISTICS_ENABLED: 'false',
    QWEN_CODE_DISABLE_PRECONNECT: '1',
  };
}

/** Grok CLI (@vibe-kit/grok-cli): ~/.grok/user-settings.json holds the API key, the base URL (the openai SDK's
 * Chat Completions client) and the default model; <project>/.grok/settings.json the project's model (it writes the
 * same default itself when missing). It has no update check, telemetry or trust prompt; MCP servers come from the
 * project settings (none). Auto-edit stays off: it asks before each bash command. GROK_BASE_URL / GROK_API_KEY /
 * GROK_MODEL say the same in its environment. */
function grokSettings(home, project, backendUrl) {
  const model = 'grok-code-fast-1';
  mkdirSync(join(home, '.grok'), { recursive: true });
  writeFileSync(join(home, '.grok', 'user-settings.json'), JSON.stringify({ apiKey: 'sk-fake', baseURL: backendUrl, defaultModel: model, models: [model], settingsVersion: 2 }, null, 2) + '\n');
  mkdirSync(join(project, '.grok'), { recursive: true });
  writeFileSync(join(project, '.grok', 'settings.json'), JSON.stringify({ model }, null, 2) + '\n');
  return { GROK_API_KEY: 'sk-fake', GROK_BASE_URL: backendUrl, GROK_MODEL: model };
}

/** Hook calls logged since `offset` (bytes): [{epoch, agent, event, payload}], and the new offset. */
export function readHookLog(log, offset) {
  const buf = readFileSync(log);
  const end = buf.lastIndexOf(0x0a) + 1;
  if (end <= offset) return { calls: [], offset };
  const calls = [];
  for (const line of buf.subarray(offset, end).toString('utf8').split('\n')) {
    if (!line) continue;
    const [epoch, agent, event, b64] = line.split('\t');
    const text = Buffer.from(b64 ?? '', 'base64').toString('utf8');
    let payload;
    try {
      payload = JSON.parse(text);
    } catch {
      payload = text;
    }
    calls.push({ epoch: Number(epoch), agent, event: event === '-' ? '' : event, payload });
  }
  return { calls, offset: end };
}
