// Step sequences several scenarios share (the recorders' step language: docs/recording.md).

/** The person submits `prompt`; the program asks twice in the turn, and each question is answered with Enter after
 * `pauseS`; then the turn's end. */
export function approveTwice(prompt, pauseS = 2) {
  return [
    { type: prompt, enter: true },
    { wait: 'approval', n: 1 },
    { wait: pauseS },
    { answer: 'Enter' },
    { wait: 'approval', n: 2 },
    { wait: pauseS },
    { answer: 'Enter' },
    { wait: 'turn_end' },
  ];
}
