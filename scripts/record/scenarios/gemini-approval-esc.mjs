// gemini-hooks-approval-esc.mjs without hooks, Esc 1.5 s after the confirmation shows (issue 12 item 4).
import { approvalEsc } from './gemini-hooks-approval-esc.mjs';

export default approvalEsc({ name: 'gemini-approval-esc', escAfterS: 1.5, hooks: false });
