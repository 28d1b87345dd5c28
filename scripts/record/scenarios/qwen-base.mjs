// What every Qwen Code recording shares: the CLI and its version, no hooks (termsupervisor has none for it yet),
// kept out of the scored recordings (tests/fixtures/agents-next: no profile yet), paced by the input box.
export const QWEN = { agent: 'qwen', source: 'qwen-code 0.24.4', hooks: false, folder: 'agents-next' };
export const READY = { wait: 'screen', text: 'Type your message', timeout: 60 };
