// Codex 0.169 with notify installed: while the first answer streams the person types the next message and presses
// Tab (the key Codex queues with); Codex sends it by itself when the turn ends (issue 12 item 7).
export default {
  name: 'codex-hooks-queued',
  agent: 'codex',
  source: 'codex 0.169.0',
  scenario: 'Hooks installed (notify). Prompt; backend thinks 1 s and streams a long answer over ~5 s; ~2 s in the driver types a second message and presses Tab (the key Codex queues with); Codex sends it when the first turn ends; backend answers it in ~2 s; 6 s rest.',
  replies: [
    { text: 'Here is a long answer that streams slowly so that the person has time to type the next message while it runs. It goes on for a while.', thinkMs: 1000, chunks: 10, chunkMs: 500 },
    { text: 'And this answers the queued message.', thinkMs: 1500, chunks: 3, chunkMs: 200 },
  ],
  steps: [
    { wait: 'screen', text: 'Ask Codex to do anything' },
    { wait: 1.5 },
    { type: 'tell me a story', enter: true },
    { wait: 2.5 },
    // Codex queues with Tab (Enter would steer the running turn instead)
    { type: 'and another one' },
    { press: 'Tab', queue: true },
    { wait: 'turn_end', n: 2 },
  ],
  tail: 6,
};
