// Gemini CLI 0.61 without hooks: while the first answer streams the person types the next message and presses Enter;
// Gemini queues it and sends it by itself when the turn ends, its title flashing "◇ Ready" for a moment in between
// (issue 12 item 7, as first seen: a DONE for 1.2 s, RUNNING back 0.6 s after the spinner).
export default {
  name: 'gemini-queued',
  agent: 'gemini',
  source: 'gemini-cli 0.61.0',
  hooks: false,
  scenario: 'No hooks. Prompt; backend thinks 1 s and streams a long answer over ~5 s; ~2.5 s in the driver types a second message and Enter (queued); Gemini sends it when the first turn ends; backend answers it in ~2 s; 6 s rest.',
  replies: [
    { text: 'Here is a long answer that streams slowly so that the person has time to type the next message while it runs. It goes on for a while.', thinkMs: 1000, chunks: 10, chunkMs: 500 },
    { text: 'And this answers the queued message.', thinkMs: 1500, chunks: 3, chunkMs: 200 },
  ],
  steps: [
    { wait: 'screen', text: 'Type your message' },
    { wait: 1.5 },
    { type: 'tell me a story', enter: true },
    { wait: 2.5 },
    { type: 'and another one', enter: true },
    { wait: 'turn_end', n: 2 },
  ],
  tail: 6,
};
