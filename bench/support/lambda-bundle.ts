import { existsSync, mkdirSync, readdirSync } from 'node:fs';
import { isBuiltin } from 'node:module';
import { join } from 'node:path';
import { type BuildOptions, build, type Metafile } from 'esbuild';
import { ESM_REQUIRE_BANNER, MAIN_FIELDS, sdkAliases } from '../../infra/constructs/lambda-bundling';
import { REPO_ROOT } from './paths';

/**
 * The esbuild settings of infra/constructs/gpurent-function.ts (ESM, minified,
 * `module` before `main`, the createRequire banner for inlined CommonJS, a
 * source map without the sources); what stays external is the caller's choice.
 */
const LAMBDA_BUNDLE_OPTIONS = {
  platform: 'node',
  target: 'node22',
  format: 'esm',
  bundle: true,
  minify: true,
  mainFields: MAIN_FIELDS,
  banner: { js: ESM_REQUIRE_BANNER },
  sourcemap: true,
  sourcesContent: false,
  metafile: true,
  logLevel: 'silent',
} as const satisfies BuildOptions;

export interface LambdaBundle {
  readonly path: string;
  readonly bytes: number;
  /** Output bytes per package (`(project)` for the repository's own code), largest first. */
  readonly bytesByPackage: ReadonlyArray<readonly [string, number]>;
  /** Packages left external that the bundle imports, loaded from node_modules at run time. */
  readonly externalPackages: readonly string[];
  /** Every input file with code in the bundle, as the metafile names it. */
  readonly inputs: readonly string[];
}

/** Every `functions/<name>/handler.ts`: one Lambda function each, as infra/ deploys them. */
export function functionHandlers(): Array<{ name: string; entry: string }> {
  const root = join(REPO_ROOT, 'functions');
  return readdirSync(root, { withFileTypes: true })
    .filter((dir) => dir.isDirectory() && existsSync(join(root, dir.name, 'handler.ts')))
    .map((dir) => ({ name: dir.name, entry: join(root, dir.name, 'handler.ts') }))
    .sort((a, b) => a.name.localeCompare(b.name));
}

export type BundleSource =
  | { readonly entry: string }
  | { readonly contents: string; readonly resolveDir: string };

/** Bundles a handler into `<outDir>/index.mjs`; `external` leaves matching imports to the runtime. */
export async function bundleHandler(
  source: BundleSource,
  outDir: string,
  external: readonly string[] = [],
): Promise<LambdaBundle> {
  mkdirSync(outDir, { recursive: true });
  const outfile = join(outDir, 'index.mjs');
  const input =
    'entry' in source
      ? { entryPoints: [source.entry] }
      : { stdin: { contents: source.contents, resolveDir: source.resolveDir, loader: 'ts' as const } };
  // The SDK aliases apply where the SDK is bundled, as in the construct.
  const alias = external.includes('@aws-sdk/*') ? {} : sdkAliases(REPO_ROOT);
  const result = await build({ ...LAMBDA_BUNDLE_OPTIONS, ...input, outfile, external: [...external], alias });
  // The bundle, not its source map (a file of its own).
  const output = Object.entries(result.metafile.outputs).find(([path]) => !path.endsWith('.map'))?.[1];
  if (output === undefined) throw new Error(`esbuild wrote no output for ${outfile}`);
  const externalPackages = [
    ...new Set(output.imports.filter((i) => i.external && !isBuiltin(i.path)).map((i) => i.path)),
  ].sort();
  return {
    path: outfile,
    bytes: output.bytes,
    bytesByPackage: bytesByPackage(output.inputs),
    externalPackages,
    inputs: Object.keys(output.inputs).filter((input) => (output.inputs[input]?.bytesInOutput ?? 0) > 0),
  };
}

function bytesByPackage(inputs: Metafile['outputs'][string]['inputs']): Array<[string, number]> {
  const totals = new Map<string, number>();
  for (const [path, { bytesInOutput }] of Object.entries(inputs)) {
    const name = packageOf(path);
    totals.set(name, (totals.get(name) ?? 0) + bytesInOutput);
  }
  return [...totals].sort((a, b) => b[1] - a[1]);
}

/** `node_modules/@aws-sdk/client-sqs/dist/x.js` → `@aws-sdk/client-sqs`; anything else is the project's. */
function packageOf(path: string): string {
  const match = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(path.slice(path.lastIndexOf('node_modules/')));
  if (match?.[1]) return match[1];
  // The rewritten copies of infra/constructs/tree-shakable-ec2.ts, under .build/<name>-<version>/.
  const copy = /\.build\/([a-z0-9-]+)-\d[^/]*\//.exec(path);
  return copy?.[1] ? `@aws-sdk/${copy[1]}` : '(project)';
}
