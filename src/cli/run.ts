// `termsupervisor run`: placeholder until the pty wrapper lands (being written now).
import { UsageError } from './args.js';
export async function runCommand(_argv: string[]): Promise<number> {
  throw new UsageError('run: not built yet');
}
