import { existsSync, mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { isBuiltin } from 'node:module';
import { join, relative, resolve } from 'node:path';
import type { Metafile } from 'esbuild';
import { bundleLambda, LAMBDA_ENTRY_FILE } from '../../infra/constructs/lambda-bundling';
import { REPO_ROOT } from './paths';

/**
 * The settings of infra/constructs/gpurent-function.ts, through the same
 * lambdaBuildOptions (ESM, minified, split into `index.mjs` and `chunks/`,
 * `module` before `main`, the createRequire banner, source maps without the
 * sources), but target node22; what stays external is the caller's choice.
 */
const BENCH_TARGET = 'node22';

export interface LambdaBundle {
  /** The entry Lambda loads, `index.mjs`. */
  readonly path: string;
  /** What a cold start loads: the entry and the chunks it imports statically (not their source maps). */
  readonly bytes: number;
  /** How many files that is. */
  readonly filesAtLoad: number;
  /** Every JavaScript file of the package, the chunks loaded on first use included. */
  readonly packageBytes: number;
  /** The chunk of each module imported with `import()` (repository-relative source → absolute path). */
  readonly chunkOf: Readonly<Record<string, string>>;
  /** Output bytes per package at load (`(project)` for the repository's own code), largest first. */
  readonly bytesByPackage: ReadonlyArray<readonly [string, number]>;
  /** Packages left external that the bundle imports, loaded from node_modules at run time. */
  readonly externalPackages: readonly string[];
  /** Every input file with code in the package, as the metafile names it. */
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

/** Bundles a handler into `<outDir>/index.mjs` and its chunks; `external` leaves matching imports to the runtime. */
export async function bundleHandler(
  source: BundleSource,
  outDir: string,
  external: readonly string[] = [],
): Promise<LambdaBundle> {
  mkdirSync(outDir, { recursive: true });
  let entry: string;
  if ('entry' in source) entry = source.entry;
  else {
    // Beside the output (resolveDir: only a bare handler, which imports nothing, is bundled so).
    entry = `${outDir}.entry.ts`;
    writeFileSync(entry, source.contents);
  }
  const result = await bundleLambda({
    entry,
    outDir,
    target: BENCH_TARGET,
    external,
    bundleAwsSdk: !external.includes('@aws-sdk/*'),
    projectRoot: REPO_ROOT,
    logLevel: 'silent',
  }).finally(() => {
    if (!('entry' in source)) rmSync(entry, { force: true });
  });
  // The metafile names files relative to the working directory.
  const outputs = Object.fromEntries(
    Object.entries(result.metafile.outputs)
      .filter(([path]) => !path.endsWith('.map'))
      .map(([path, output]) => [resolve(path), output]),
  );
  const path = join(outDir, LAMBDA_ENTRY_FILE);
  if (outputs[path] === undefined) throw new Error(`esbuild wrote no ${path}`);
  const atLoad = staticClosure(outputs, path);
  const loaded = atLoad.map((file) => outputs[file] as Output);
  const all = Object.values(outputs);
  const externalPackages = [
    ...new Set(
      all.flatMap((o) => o.imports.filter((i) => i.external && !isBuiltin(i.path)).map((i) => i.path)),
    ),
  ].sort();
  return {
    path,
    bytes: sum(loaded.map((o) => o.bytes)),
    filesAtLoad: atLoad.length,
    packageBytes: sum(all.map((o) => o.bytes)),
    chunkOf: Object.fromEntries(
      Object.entries(outputs).flatMap(([file, o]) =>
        o.entryPoint === undefined ? [] : [[relative(REPO_ROOT, resolve(o.entryPoint)), file]],
      ),
    ),
    bytesByPackage: bytesByPackage(Object.assign({}, ...loaded.map((o) => o.inputs))),
    externalPackages,
    inputs: [
      ...new Set(
        all.flatMap((o) =>
          Object.keys(o.inputs).filter((input) => (o.inputs[input]?.bytesInOutput ?? 0) > 0),
        ),
      ),
    ],
  };
}

type Output = Metafile['outputs'][string];

const sum = (values: readonly number[]) => values.reduce((a, b) => a + b, 0);

/** The file and every output it imports statically, transitively: what Node loads with it. */
function staticClosure(outputs: Readonly<Record<string, Output>>, start: string): string[] {
  const seen = new Set<string>();
  const pending = [start];
  for (let file = pending.pop(); file !== undefined; file = pending.pop()) {
    if (seen.has(file)) continue;
    seen.add(file);
    for (const imported of outputs[file]?.imports ?? []) {
      if (imported.kind === 'import-statement' && !imported.external) {
        pending.push(resolve(imported.path));
      }
    }
  }
  return [...seen];
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
