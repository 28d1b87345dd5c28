#!/usr/bin/env node
// Records the chat-completions agents' scenarios (scripts/record/scenarios/chat-agents.mjs): each one straight into
// its folder, so a stopped run keeps what it made.
//   node scripts/record/agents/record-chat.mjs opencode|kilo [what...]     (what: idle quick thinking approval ...)
import { execFileSync } from 'node:child_process';
import { AGENT_BIN } from './agent-setup.mjs';
import { recordAgent } from './record-agent.mjs';
import { chatScenarios } from '../scenarios/chat-agents.mjs';

const [agent, ...whats] = process.argv.slice(2);
if (!AGENT_BIN[agent]) {
  console.error('usage: node scripts/record/agents/record-chat.mjs opencode|kilo [what...]');
  process.exit(2);
}
const version = execFileSync(AGENT_BIN[agent], ['--version'], { encoding: 'utf8', env: { ...process.env, HOME: '/nonexistent' } }).trim().split('\n').pop();
const name = agent === 'kilo' ? 'kilo-code-cli' : agent;
for (const sc of chatScenarios(agent, `${name} ${version}`)) {
  if (whats.length && !whats.includes(sc.name.slice(agent.length + 1))) continue;
  const { out, truth } = await recordAgent(sc, { scenarioFile: 'chat-agents.mjs' });
  console.log(`${out}: ${truth.duration} s, ${truth.segments.map((x) => `${x.state}@${x.start}`).join(' ')}; events ${truth.events.map((e) => `${e.kind}@${e.t}`).join(' ')}`);
}
process.exit(0);
