import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

/** Scratch space for build outputs; git-ignored. */
export const BENCH_TMP = resolve(REPO_ROOT, '.bench-tmp');
