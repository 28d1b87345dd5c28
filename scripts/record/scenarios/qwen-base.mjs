// What every Qwen Code recording shares: the CLI and its version, paced by the input box. The first recordings are of
// the screen alone (no hooks); QWEN_HOOKS: termsupervisor's hooks installed (`hooks install qwen`), each call kept in
// the cast as an "h" event.
export const QWEN = { agent: 'qwen', source: 'qwen-code 0.24.4', hooks: false, folder: 'recordings' };
export const QWEN_HOOKS = { ...QWEN, hooks: true };
export const READY = { wait: 'screen', text: 'Type your message', timeout: 60 };
