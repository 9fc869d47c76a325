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
