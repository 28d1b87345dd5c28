// Preloaded into a real termsupervisor process (`node --import …/register.mjs`, or NODE_OPTIONS) by the
// analysis-fault tests: it swaps in a profile that throws, the one fault a real screen can no longer cause once
// the profiles are fixed. Nothing else in the process changes. See hooks.mjs.
import { register } from 'node:module';

register('./hooks.mjs', import.meta.url);
