/**
 * Lambda bundles: each `functions/<name>/handler.ts` bundled as the CDK
 * construct deploys it (infra/constructs/lambda-bundling.ts: `index.mjs` and the
 * chunks it imports on first use), what a cold start loads of it, and its cold
 * module load: a fresh `node` process running `index.mjs` (so its static
 * chunks), against a bare handler bundled and loaded the same way in the same
 * run. For the functions that import on first use, a first request too: the
 * entry and then the chunks a typical route's first request imports. For comparison, the
 * same handler with `@aws-sdk/*` left to the runtime: its load includes Node
 * loading those SDK packages from node_modules, as Lambda loads them from the
 * runtime's, so that figure does not flatter the smaller package.
 */
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { BUNDLE_AWS_SDK, LAMBDA_NODE_OPTIONS } from '../infra/constructs/lambda-bundling';
import type { BenchmarkResult } from './support/benchmark';
import { type ColdLoadTarget, environmentFor, medianColdLoadMs } from './support/cold-load';
import {
  type BundleSource,
  bundleHandler,
  functionHandlers,
  type LambdaBundle,
} from './support/lambda-bundle';
import { BENCH_TMP, REPO_ROOT } from './support/paths';
import { round } from './support/stats';

const LOAD_RUNS = 15;
/** The comparison build is several times slower to load; fewer runs keep the bench short. */
const COMPARISON_LOAD_RUNS = 5;
const TOP_PACKAGES = 5;
const BARE = 'bare';
const BARE_HANDLER = 'export const handler = async () => ({});';
const OUT_DIR = join(BENCH_TMP, 'functions');
const RUNTIME_SDK = ['@aws-sdk/*'];
const DEPLOYED_EXTERNALS = BUNDLE_AWS_SDK ? [] : RUNTIME_SDK;
const COMPARISON_EXTERNALS = BUNDLE_AWS_SDK ? RUNTIME_SDK : [];
const COMPARISON = BUNDLE_AWS_SDK ? 'the SDK from the runtime' : 'the SDK bundled';

/**
 * What a typical route's first request imports on top of the entry: the API's
 * POST /v1/leases loads its route group and the use cases createLeaseOnce
 * imports (functions/api/handler.ts). Sources, repository-relative.
 */
const FIRST_REQUESTS: Readonly<
  Record<string, { readonly route: string; readonly imports: readonly string[] }>
> = {
  api: {
    route: 'POST /v1/leases',
    imports: [
      'functions/api/routes/leases.ts',
      'shared/usecases/lease-shape.ts',
      'shared/usecases/create-lease.ts',
    ],
  },
};

interface Built {
  readonly name: string;
  /** As deployed. */
  readonly bundle: LambdaBundle;
  readonly target: ColdLoadTarget;
  /** The other choice of BUNDLE_AWS_SDK. */
  readonly comparison: LambdaBundle;
  readonly comparisonTarget: ColdLoadTarget;
}

/** Bundles one handler both ways and learns the environment it needs to load; a string says why it could not. */
async function build(name: string, source: BundleSource): Promise<Built | string> {
  let bundle: LambdaBundle;
  let comparison: LambdaBundle;
  try {
    bundle = await bundleHandler(source, join(OUT_DIR, name), DEPLOYED_EXTERNALS);
    comparison = await bundleHandler(source, join(OUT_DIR, `${name}-comparison`), COMPARISON_EXTERNALS);
  } catch (error) {
    return `bundle failed: ${(error as Error).message.split('\n')[0]}`;
  }
  const env = environmentFor(bundle.path);
  if ('error' in env) return `load failed: ${env.error}`;
  return {
    name,
    bundle,
    target: { name, bundlePath: bundle.path, env },
    comparison,
    comparisonTarget: { name, bundlePath: comparison.path, env },
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
  for (const { name, entry } of functionHandlers()) {
    const outcome = await build(name, { entry });
    if (typeof outcome === 'string') failures[name] = outcome;
    else built.push(outcome);
  }

  const loadMs = medianColdLoadMs([bare.target, ...built.map((b) => b.target)], LOAD_RUNS);
  const comparisonMs = medianColdLoadMs(
    [bare.comparisonTarget, ...built.map((b) => b.comparisonTarget)],
    COMPARISON_LOAD_RUNS,
  );
  // First requests: `node -e` importing the entry and the route's chunks, against the bare handler imported so.
  const firstRequestTargets = built.flatMap(({ name, bundle, target }) => {
    const first = FIRST_REQUESTS[name];
    if (first === undefined) return [];
    const thenImport = first.imports.flatMap((source) => bundle.chunkOf[source] ?? []);
    return [{ ...target, thenImport }];
  });
  const firstMs =
    firstRequestTargets.length > 0
      ? medianColdLoadMs([{ ...bare.target, thenImport: [] }, ...firstRequestTargets], LOAD_RUNS)
      : new Map<string, number>();
  const bareMs = loadMs.get(BARE) as number;
  const comparisonBareMs = comparisonMs.get(BARE) as number;
  const firstBareMs = firstMs.get(BARE);
  const functions = Object.fromEntries(
    built.map(({ name, bundle, comparison }) => {
      const ms = loadMs.get(name) as number;
      const otherMs = comparisonMs.get(name) as number;
      const first = FIRST_REQUESTS[name];
      const firstRequestMs = firstMs.get(name);
      const figures = {
        bytes: bundle.bytes,
        filesAtLoad: bundle.filesAtLoad,
        packageBytes: bundle.packageBytes,
        largestPackagesKiB: Object.fromEntries(
          bundle.bytesByPackage.slice(0, TOP_PACKAGES).map(([pkg, bytes]) => [pkg, kib(bytes)]),
        ),
        medianLoadMs: round(ms, 1),
        loadRatioVsBare: round(ms / bareMs, 2),
        loadMsOverBare: round(ms - bareMs, 1),
        ...(first !== undefined && firstRequestMs !== undefined && firstBareMs !== undefined
          ? {
              firstRequest: {
                route: first.route,
                imports: first.imports,
                medianMs: round(firstRequestMs, 1),
                ratioVsBare: round(firstRequestMs / firstBareMs, 2),
              },
            }
          : {}),
        comparison: {
          bytes: comparison.bytes,
          sdkPackagesFromNodeModules: BUNDLE_AWS_SDK ? comparison.externalPackages : bundle.externalPackages,
          medianLoadMs: round(otherMs, 1),
          loadRatioVsBare: round(otherMs / comparisonBareMs, 2),
        },
      };
      return [name, figures];
    }),
  );

  const figures = {
    loadRuns: LOAD_RUNS,
    bare: {
      bytes: bare.bundle.bytes,
      medianLoadMs: round(bareMs, 1),
      ...(firstBareMs === undefined ? {} : { medianImportMs: round(firstBareMs, 1) }),
    },
    functions,
    ...(Object.keys(failures).length > 0 ? { failures } : {}),
    assumptions: [
      'bundled with lambdaBuildOptions of infra/constructs/lambda-bundling.ts, as infra/constructs/gpurent-function.ts does (platform node, format esm, split into index.mjs and chunks/, minify, mainFields module,main, createRequire banner, source maps without sources), but target node22; bytes: what a cold start loads (index.mjs and the chunks it imports statically, filesAtLoad files, without maps); packageBytes: every chunk of the package',
      `first request (api): a fresh \`node --input-type=module -e\` importing index.mjs, then the chunks of ${Object.values(
        FIRST_REQUESTS,
      )
        .map((f) => `${f.route} (${f.imports.join(', ')})`)
        .join(
          '; ',
        )} in turn, median of ${LOAD_RUNS}, against the bare handler imported the same way; no AWS call is made`,
      `bytes and load: the deployed bundle, ${BUNDLE_AWS_SDK ? 'the AWS SDK bundled in' : '@aws-sdk/* left to the Lambda runtime'} (BUNDLE_AWS_SDK in infra/constructs/lambda-bundling.ts)`,
      `comparison: the same build with ${COMPARISON}, ${COMPARISON_LOAD_RUNS} runs, against a bare handler in the same runs; with the SDK external the load includes Node resolving and loading the @aws-sdk packages of sdkPackagesFromNodeModules (and their @smithy dependencies) from this repository's node_modules, as Lambda loads them from its runtime's (the pinned version here, not the runtime's own copy)`,
      `cold load = wall time of a fresh \`node <bundle>\` process until it exits (process start, parse, reading the source map as NODE_OPTIONS=${LAMBDA_NODE_OPTIONS} makes Node do in Lambda, module top level), median of ${LOAD_RUNS}, functions taking turns run by run`,
      `baseline: a bare handler (\`${BARE_HANDLER}\`) bundled and loaded the same way in the same run`,
      'Lambda-like environment (AWS_REGION, AWS_LAMBDA_FUNCTION_NAME, AWS_EXECUTION_ENV, Powertools names) plus every variable the functions read (resources of shared/resources.ts, launch template, subnets, the spot data folder) as placeholders, for the bare handler too: nothing connects at load',
      `local Node ${process.version}, not the Lambda runtime: the ratios carry over better than the milliseconds`,
    ],
  };
  const summary = [
    `bare handler: ${kib(bare.bundle.bytes)} KiB, ${round(bareMs, 1)} ms to load (median of ${LOAD_RUNS})`,
    ...Object.entries(functions).map(
      ([name, f]) =>
        `${name}: ${kib(f.bytes)} KiB in ${f.filesAtLoad} files at load (package ${kib(f.packageBytes)} KiB), ${f.medianLoadMs} ms to load (${f.loadRatioVsBare}× bare, ${signed(f.loadMsOverBare)} ms); ` +
        ('firstRequest' in f && f.firstRequest
          ? `first ${f.firstRequest.route}: ${f.firstRequest.medianMs} ms (${f.firstRequest.ratioVsBare}× bare); `
          : '') +
        `with ${COMPARISON}: ${kib(f.comparison.bytes)} KiB, ${f.comparison.loadRatioVsBare}× bare`,
    ),
    ...Object.entries(failures).map(([name, error]) => `${name}: ${error}`),
  ].join('\n');
  return { key: 'functions', figures, summary };
}
