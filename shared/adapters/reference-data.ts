import { fileURLToPath } from 'node:url';

/**
 * The team's reference data (price catalog, spot and demand traces) sits beside
 * the repository, `../shared/data`, wherever the code is started from.
 */
export const DEFAULT_DATA_DIR = fileURLToPath(new URL('../../../shared/data', import.meta.url));
