// gemini-hooks-approval-esc.mjs with Esc 1.5 s after the confirmation shows (soon after the Notification hook).
import { approvalEsc } from './gemini-hooks-approval-esc.mjs';

export default approvalEsc({ name: 'gemini-hooks-approval-esc-quick', escAfterS: 1.5, hooks: true });
