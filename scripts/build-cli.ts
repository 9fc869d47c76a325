/**
 * `npm run build:cli` (also run by `prepare`, so `npm ci` leaves it built, and
 * by `npm pack`): bundles the gpurent command into dist/, the package's bin.
 */
import { chmodSync, readFileSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build, type Metafile } from 'esbuild';
import { ESM_REQUIRE_BANNER } from '../infra/constructs/lambda-bundling';

const REPO_ROOT = fileURLToPath(new URL('..', import.meta.url));
export const CLI_OUTDIR = resolve(REPO_ROOT, 'dist');
/** The entry file's name in the output directory. */
export const CLI_BUNDLE = 'gpurent.mjs';

const packageVersion = (): string =>
  (JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as { version: string }).version;

/**
 * Writes `<outdir>/gpurent.mjs` and the planner's chunk (`simulate` imports it
 * lazily, so `--help` parses commander and the command tree only). Everything
 * the CLI imports is inside, so the package needs no runtime dependency. The
 * chunks sit directly in `outdir`, one level below the package root as
 * planner/ is, so the planner's default `--data` (the reference data beside the
 * repository) resolves to the same directory from the bundle as from the sources.
 */
export async function buildCli(outdir: string = CLI_OUTDIR): Promise<{ bin: string; metafile: Metafile }> {
  rmSync(outdir, { recursive: true, force: true });
  const result = await build({
    absWorkingDir: REPO_ROOT,
    entryPoints: { gpurent: 'cli/main.ts' },
    outdir,
    outExtension: { '.js': '.mjs' },
    chunkNames: '[name]-[hash]',
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20.11',
    // commander is CommonJS: its require('node:events') needs a require in the ESM bundle.
    banner: { js: `#!/usr/bin/env node\n${ESM_REQUIRE_BANNER}` },
    // `gpurent --version` (cli/version.ts): the version of the package being built.
    define: { GPURENT_VERSION: JSON.stringify(packageVersion()) },
    metafile: true,
    logLevel: 'warning',
  });
  const bin = join(outdir, CLI_BUNDLE);
  chmodSync(bin, 0o755);
  return { bin, metafile: result.metafile };
}

// Silent: `npm pack --json` prints this script's output on its stdout, before the JSON.
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) await buildCli();
