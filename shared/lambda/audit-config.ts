import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { DEFAULT_DATA_DIR } from '../adapters/reference-data';
import { AVAILABILITY_DIR, PRICES_FILE } from '../adapters/spot-trace-files';
import { nonEmpty } from '../config';
import * as z from '../zod';

/**
 * Where the audit's replay reads the V100 spot traces. Locally the team's data
 * beside the repository (`../shared/data`); in AWS the CDK stack bundles the two
 * trace folders into the function package and points this at them.
 */
export const spotDataConfig = {
  SPOT_DATA_DIR: z
    ._default(nonEmpty, DEFAULT_DATA_DIR)
    .check(
      z.refine(
        (dir: string) => existsSync(join(dir, AVAILABILITY_DIR)) && existsSync(join(dir, PRICES_FILE)),
        `must be a directory holding ${AVAILABILITY_DIR}/ and ${PRICES_FILE}`,
      ),
    ),
};
