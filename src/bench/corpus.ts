// The recorded corpus (tests/fixtures/corpus/<name>/session.cast) as one workload: every cast, in name order.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseCast } from '../attach/asciicast.js';
import { workload, type Workload } from './workload.js';

/** From dist/bench/ (or src/bench/) up to the repository's corpus. */
export const DEFAULT_CORPUS_DIR = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'tests', 'fixtures', 'corpus');

export function loadCorpus(dir = DEFAULT_CORPUS_DIR): Workload {
  const names = readdirSync(dir)
    .filter((d) => existsSync(join(dir, d, 'session.cast')))
    .sort();
  if (!names.length) throw new Error(`no recordings (<name>/session.cast) under ${dir}`);
  return workload('corpus', names.map((name) => ({ name, cast: parseCast(readFileSync(join(dir, name, 'session.cast'), 'utf8')) })));
}
