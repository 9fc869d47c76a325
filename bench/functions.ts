/**
 * Lambda bundles: each `functions/<name>/handler.ts` bundled as the CDK
 * construct does, its size, and its cold module load (a fresh `node` process
 * running the bundle), both against a bare handler bundled and loaded the same
 * way in the same run.
 */
import { existsSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { BenchmarkResult } from './support/benchmark';
import { type ColdLoadTarget, environmentFor, medianColdLoadMs } from './support/cold-load';
import { type BundleSource, bundleHandler, type LambdaBundle } from './support/lambda-bundle';
import { BENCH_TMP, REPO_ROOT } from './support/paths';
import { round } from './support/stats';

const LOAD_RUNS = 15;
const TOP_PACKAGES = 5;
const BARE = 'bare';
const BARE_HANDLER = 'export const handler = async () => ({});';
const OUT_DIR = join(BENCH_TMP, 'functions');

interface Built {
  readonly name: string;
  readonly bundle: LambdaBundle;
  readonly sdkExternalBytes: number;
  readonly target: ColdLoadTarget;
}

function discoverHandlers(): string[] {
  const root = join(REPO_ROOT, 'functions');
  return readdirSync(root, { withFileTypes: true })
    .filter((dir) => dir.isDirectory() && existsSync(join(root, dir.name, 'handler.ts')))
    .map((dir) => dir.name)
    .sort();
}

/** Bundles one handler and learns the environment it needs to load; a string says why it could not. */
async function build(name: string, source: BundleSource): Promise<Built | string> {
  let bundle: LambdaBundle;
  let sdkExternal: LambdaBundle;
  try {
    bundle = await bundleHandler(source, join(OUT_DIR, name));
    sdkExternal = await bundleHandler(source, join(OUT_DIR, `${name}-sdk-external`), ['@aws-sdk/*']);
  } catch (error) {
    return `bundle failed: ${(error as Error).message.split('\n')[0]}`;
  }
  const env = environmentFor(bundle.path);
  if ('error' in env) return `load failed: ${env.error}`;
  return {
    name,
    bundle,
    sdkExternalBytes: sdkExternal.bytes,
    target: { name, bundlePath: bundle.path, env },
  };
}

const kib = (bytes: number) => round(bytes / 1024, 1);
const signed = (value: number) => (value < 0 ? `${value}` : `+${value}`);

export async function run(): Promise<BenchmarkResult> {
  rmSync(OUT_DIR, { recursive: true, force: true });
  const bare = await build(BARE, { contents: BARE_HANDLER, resolveDir: REPO_ROOT });
  if (typeof bare === 'string') throw new Error(`The bare baseline handler: ${bare}`);
  const built: Built[] = [];
  const failures: Record<string, string> = {};
  for (const name of discoverHandlers()) {
    const outcome = await build(name, { entry: join(REPO_ROOT, 'functions', name, 'handler.ts') });
    if (typeof outcome === 'string') failures[name] = outcome;
    else built.push(outcome);
  }

  const loadMs = medianColdLoadMs([bare.target, ...built.map((b) => b.target)], LOAD_RUNS);
  const bareMs = loadMs.get(BARE) as number;
  const functions = Object.fromEntries(
    built.map(({ name, bundle, sdkExternalBytes }) => {
      const ms = loadMs.get(name) as number;
      const figures = {
        bytes: bundle.bytes,
        bytesRatioVsBare: round(bundle.bytes / bare.bundle.bytes, 1),
        bytesWithSdkExternal: sdkExternalBytes,
        largestPackagesKiB: Object.fromEntries(
          bundle.bytesByPackage.slice(0, TOP_PACKAGES).map(([pkg, bytes]) => [pkg, kib(bytes)]),
        ),
        medianLoadMs: round(ms, 1),
        loadRatioVsBare: round(ms / bareMs, 2),
        loadMsOverBare: round(ms - bareMs, 1),
      };
      return [name, figures];
    }),
  );

  const figures = {
    loadRuns: LOAD_RUNS,
    bare: { bytes: bare.bundle.bytes, medianLoadMs: round(bareMs, 1) },
    functions,
    ...(Object.keys(failures).length > 0 ? { failures } : {}),
    assumptions: [
      'bundled with esbuild as infra/constructs/gpurent-function.ts does (platform node, format esm, minify, mainFields module,main, createRequire banner), but target node22 and no source maps',
      'everything bundled, @aws-sdk/* included; bytesWithSdkExternal is the same build with @aws-sdk/* left to the Lambda runtime (the construct default, bundleAwsSdk: false)',
      `cold load = wall time of a fresh \`node <bundle>\` process until it exits (process start, parse, module top level), median of ${LOAD_RUNS}, functions taking turns run by run`,
      `baseline: a bare handler (\`${BARE_HANDLER}\`) bundled and loaded the same way in the same run`,
      'Lambda-like environment (AWS_REGION, AWS_LAMBDA_FUNCTION_NAME, AWS_EXECUTION_ENV, Powertools names) plus every variable the functions read (resources of shared/resources.ts, launch template, subnets) as placeholders, for the bare handler too: nothing connects at load',
      `local Node ${process.version}, not the Lambda runtime: the ratios carry over better than the milliseconds`,
    ],
  };
  const summary = [
    `bare handler: ${kib(bare.bundle.bytes)} KiB, ${round(bareMs, 1)} ms to load (median of ${LOAD_RUNS})`,
    ...Object.entries(functions).map(
      ([name, f]) =>
        `${name}: ${kib(f.bytes)} KiB (${f.bytesRatioVsBare}× bare; ${kib(f.bytesWithSdkExternal)} KiB with the SDK external), ` +
        `${f.medianLoadMs} ms to load (${f.loadRatioVsBare}× bare, ${signed(f.loadMsOverBare)} ms)`,
    ),
    ...Object.entries(failures).map(([name, error]) => `${name}: ${error}`),
  ].join('\n');
  return { key: 'functions', figures, summary };
}
