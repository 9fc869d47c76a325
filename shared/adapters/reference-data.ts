import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The folder holding this project's package.json, found from wherever this module was bundled to. */
function packageRoot(from: string): string | undefined {
  for (let dir = from; ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'package.json'))) return dir;
    if (dirname(dir) === dir) return undefined;
  }
}

const here = dirname(fileURLToPath(import.meta.url));

/**
 * The team's reference data (price catalog, spot and demand traces) sits beside
 * the repository, `../shared/data`. Found from the package root, so the sources
 * (shared/adapters/) and the CLI bundle (dist/) agree; where no package root is
 * found (a Lambda package), the variables that name the data say where it is.
 */
export const DEFAULT_DATA_DIR = join(packageRoot(here) ?? join(here, '..', '..'), '..', 'shared', 'data');
