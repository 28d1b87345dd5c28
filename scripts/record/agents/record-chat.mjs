#!/usr/bin/env node
// Records the chat-completions agents' scenarios (scripts/record/scenarios/chat-agents.mjs): each one straight into
// its folder, so a stopped run keeps what it made.
//   node scripts/record/agents/record-chat.mjs opencode|kilo [--hooks|--more] [what...]     (what: idle quick thinking approval ...)
//   node scripts/record/agents/record-chat.mjs grok [what...]      (Grok CLI: scripts/record/scenarios/grok.mjs, into tests/fixtures/unseen/)
// --hooks: the sessions with termsupervisor's plugin installed (chatHookScenarios), named <agent>-hooks-<what>.
// --more: the later sessions of chat-agents-more.mjs (other sizes and shapes of turn, to check generalisation).
import { execFileSync } from 'node:child_process';
import { readFileSync, realpathSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { AGENT_BIN } from './agent-setup.mjs';
import { recordAgent } from './record-agent.mjs';
import { chatHookScenarios, chatScenarios } from '../scenarios/chat-agents.mjs';
import { moreChatScenarios } from '../scenarios/chat-agents-more.mjs';
import { grokScenarios } from '../scenarios/grok.mjs';

const args = process.argv.slice(2);
const withHooks = args.includes('--hooks');
const more = args.includes('--more');
const [agent, ...whats] = args.filter((a) => a !== '--hooks' && a !== '--more');
if (!AGENT_BIN[agent]) {
  console.error('usage: node scripts/record/agents/record-chat.mjs opencode|kilo|grok [what...]');
  process.exit(2);
}
// Grok CLI's `--version` prints a constant ("1.0.1"): its package.json (next to dist/index.js) has the version.
const grokVersion = () => JSON.parse(readFileSync(join(dirname(realpathSync(AGENT_BIN.grok)), '..', 'package.json'), 'utf8')).version;
const version = agent === 'grok' ? grokVersion() : execFileSync(AGENT_BIN[agent], ['--version'], { encoding: 'utf8', env: { ...process.env, HOME: '/nonexistent' } }).trim().split('\n').pop();
const name = agent === 'kilo' ? 'kilo-code-cli' : agent === 'grok' ? 'grok-cli' : agent;
const prefix = withHooks ? `${agent}-hooks-` : `${agent}-`;
const scenarioFile = agent === 'grok' ? 'grok.mjs' : more ? 'chat-agents-more.mjs' : 'chat-agents.mjs';
const scenarios = agent === 'grok' ? grokScenarios(`${name} ${version}`) : (more ? moreChatScenarios : withHooks ? chatHookScenarios : chatScenarios)(agent, `${name} ${version}`);
for (const sc of scenarios) {
  if (whats.length && !whats.includes(sc.name.slice(prefix.length))) continue;
  const { out, truth } = await recordAgent(sc, { scenarioFile });
  console.log(`${out}: ${truth.duration} s, ${truth.segments.map((x) => `${x.state}@${x.start}`).join(' ')}; events ${truth.events.map((e) => `${e.kind}@${e.t}`).join(' ')}`);
}
process.exit(0);
