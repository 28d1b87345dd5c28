#!/usr/bin/env node
// Records the chat-completions agents' scenarios (scripts/record/scenarios/chat-agents.mjs): each one straight into
// its folder, so a stopped run keeps what it made.
//   node scripts/record/agents/record-chat.mjs opencode|kilo [--hooks|--more] [what...]     (what: idle quick thinking approval ...)
// --hooks: the sessions with termsupervisor's plugin installed (chatHookScenarios), named <agent>-hooks-<what>.
// --more: the later sessions of chat-agents-more.mjs (other sizes and shapes of turn, to check generalisation).
import { execFileSync } from 'node:child_process';
import { AGENT_BIN } from './agent-setup.mjs';
import { recordAgent } from './record-agent.mjs';
import { chatHookScenarios, chatScenarios } from '../scenarios/chat-agents.mjs';
import { moreChatScenarios } from '../scenarios/chat-agents-more.mjs';

const args = process.argv.slice(2);
const withHooks = args.includes('--hooks');
const more = args.includes('--more');
const [agent, ...whats] = args.filter((a) => a !== '--hooks' && a !== '--more');
if (!AGENT_BIN[agent]) {
  console.error('usage: node scripts/record/agents/record-chat.mjs opencode|kilo [what...]');
  process.exit(2);
}
const version = execFileSync(AGENT_BIN[agent], ['--version'], { encoding: 'utf8', env: { ...process.env, HOME: '/nonexistent' } }).trim().split('\n').pop();
const name = agent === 'kilo' ? 'kilo-code-cli' : agent;
const prefix = withHooks ? `${agent}-hooks-` : `${agent}-`;
const scenarioFile = more ? 'chat-agents-more.mjs' : 'chat-agents.mjs';
for (const sc of (more ? moreChatScenarios : withHooks ? chatHookScenarios : chatScenarios)(agent, `${name} ${version}`)) {
  if (whats.length && !whats.includes(sc.name.slice(prefix.length))) continue;
  const { out, truth } = await recordAgent(sc, { scenarioFile });
  console.log(`${out}: ${truth.duration} s, ${truth.segments.map((x) => `${x.state}@${x.start}`).join(' ')}; events ${truth.events.map((e) => `${e.kind}@${e.t}`).join(' ')}`);
}
process.exit(0);
