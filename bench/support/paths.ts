import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

/** Scratch space for build outputs; git-ignored. */
export const BENCH_TMP = resolve(REPO_ROOT, '.bench-tmp');

/** A file of the team's reference data, which sits next to the repository (see ../shared/data/README.md). */
export function referenceData(relativePath: string): string {
  return resolve(REPO_ROOT, '../shared/data', relativePath);
}
