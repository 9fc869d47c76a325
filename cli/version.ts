/** Replaced by the package.json version when `npm run build:cli` bundles the command (esbuild `define`). */
declare const GPURENT_VERSION: string | undefined;

/** The package's version; `dev` when the sources run unbundled. */
export const VERSION = typeof GPURENT_VERSION === 'string' ? GPURENT_VERSION : 'dev';
