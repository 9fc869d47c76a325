import { type BuildOptions, build, buildSync } from 'esbuild';
import { treeShakableEc2Client } from './tree-shakable-ec2';

/**
 * How every gpurent function is bundled, shared by the CDK construct and the
 * functions benchmark (bench/functions.ts) so the figures measure what is deployed.
 */

/**
 * Makes `require` available inside the ESM bundle, for the CommonJS dependencies
 * esbuild inlines (Powertools examples use the same banner).
 */
export const ESM_REQUIRE_BANNER =
  "import { createRequire } from 'node:module'; const require = createRequire(import.meta.url);";

/**
 * Stack traces in the logs point into the TypeScript sources: the package
 * carries a source map (without the sources) and Node applies it. Node reads
 * the map at every cold start, which the functions benchmark includes.
 */
export const LAMBDA_NODE_OPTIONS = '--enable-source-maps';

/** ESM builds first, so esbuild can drop what a function never imports. */
export const MAIN_FIELDS = ['module', 'main'];

/**
 * The AWS SDK is bundled, not taken from the Lambda runtime: loading the
 * runtime's copy means Node resolving and compiling dozens of CommonJS files of
 * every client at each cold start, several times what the minified,
 * tree-shaken bundle costs (`npm run bench -- functions` measures both). It also
 * pins the SDK version the tests ran against.
 */
export const BUNDLE_AWS_SDK = true;

/** Packages esbuild takes from elsewhere when the SDK is bundled (see tree-shakable-ec2.ts). */
export function sdkAliases(projectRoot: string): Record<string, string> {
  return { '@aws-sdk/client-ec2': treeShakableEc2Client(projectRoot) };
}

/** The file Lambda loads (`index.handler`); the chunks it imports sit in `chunks/` beside it. */
export const LAMBDA_ENTRY_FILE = 'index.mjs';
export const LAMBDA_CHUNK_DIR = 'chunks';

export interface LambdaBuild {
  /** The handler's TypeScript module. */
  readonly entry: string;
  /** The function package's folder: `index.mjs`, `chunks/*.mjs` and their source maps. */
  readonly outDir: string;
  /** esbuild's target, e.g. `node24` for the runtime the construct pins. */
  readonly target: string;
  /** Imports left to the runtime (`@aws-sdk/*` when the SDK is not bundled). */
  readonly external?: readonly string[];
  /** Bundle the AWS SDK in, through sdkAliases. @default BUNDLE_AWS_SDK */
  readonly bundleAwsSdk?: boolean;
  readonly projectRoot: string;
  readonly tsconfig?: string;
  readonly logLevel?: BuildOptions['logLevel'];
}

/**
 * How a function is bundled: ESM, minified, `module` before `main`, the
 * createRequire banner, a source map without the sources, and **split**:
 * `index.mjs` holds what the handler imports statically, and every module it
 * imports with a dynamic `import()` (the API's route groups and the use cases
 * behind them, functions/api/route-index.ts) becomes a chunk of its own, with
 * the code such chunks share in further chunks. A cold start then compiles
 * only the entry and its static imports; a route's chunk is read and compiled
 * on the first request it serves. NodejsFunction's esbuild CLI writes one
 * `--outfile`, which splitting cannot do, so the construct builds through
 * this function (the functions benchmark does too).
 */
export function lambdaBuildOptions(options: LambdaBuild): BuildOptions & { metafile: true } {
  const bundleAwsSdk = options.bundleAwsSdk ?? BUNDLE_AWS_SDK;
  return {
    entryPoints: { index: options.entry },
    outdir: options.outDir,
    outExtension: { '.js': '.mjs' },
    chunkNames: `${LAMBDA_CHUNK_DIR}/[name]-[hash]`,
    splitting: true,
    bundle: true,
    platform: 'node',
    target: options.target,
    format: 'esm',
    minify: true,
    mainFields: MAIN_FIELDS,
    banner: { js: ESM_REQUIRE_BANNER },
    sourcemap: true,
    sourcesContent: false,
    metafile: true,
    external: [...(options.external ?? (bundleAwsSdk ? [] : ['@aws-sdk/*']))],
    // The SDK aliases apply where the SDK is bundled.
    alias: bundleAwsSdk ? sdkAliases(options.projectRoot) : {},
    ...(options.tsconfig === undefined ? {} : { tsconfig: options.tsconfig }),
    logLevel: options.logLevel ?? 'warning',
  };
}

/** Bundles a function into its package folder (the construct's local bundling: synchronous). */
export function bundleLambdaSync(options: LambdaBuild) {
  return buildSync(lambdaBuildOptions(options));
}

/** The same, asynchronously (the benchmark and tests). */
export function bundleLambda(options: LambdaBuild) {
  return build(lambdaBuildOptions(options));
}
