import { Ec2Compute } from '../adapters/ec2-compute';
import { commaList, jsonText, nonEmpty } from '../config';
import { IMAGE_NAME_PATTERN } from '../domain/images';
import { DEFAULT_PLACEMENT_COSTS, placementCostsSchema } from '../domain/placement-costs';
import { UnavailableOfferings } from '../domain/unavailable-offerings';
import type { Compute } from '../ports/compute';
import type { PlacementSettings } from '../usecases/dependencies';
import * as z from '../zod';
import { ec2Client } from './clients';
import { type Ec2Capability, type EnvOf, portFactory } from './port-factory';

const REGION_NAME = /^[a-z]{2}(-gov)?-[a-z]+-\d$/;

/** The home region and the GPU regions, home region first; default: the home region alone. */
export const regionsEnv = {
  AWS_REGION: nonEmpty,
  GPU_REGIONS: z.optional(
    z.pipe(
      commaList,
      z
        .array(z.string().check(z.regex(REGION_NAME, 'must be region names such as us-east-1')))
        .check(z.minLength(1)),
    ),
  ),
};

/** How leases are placed: regions, costs, spot prices and the default image. */
const placementEnv = {
  ...regionsEnv,
  PLACEMENT_COSTS: z.optional(z.pipe(jsonText, placementCostsSchema)),
  SPOT_PRICE_SOURCE: z._default(z.enum(['ec2', 'catalog']), 'ec2'),
  /** Spot price as a share of on-demand where EC2 publishes none (1: bill spot at on-demand, never less). */
  SPOT_CATALOG_RATIO: z._default(z.coerce.number().check(z.gt(0), z.lte(1)), 1),
  SPOT_PRICE_NOTE: z.optional(z.string()),
  /** The image whose current version new launches use unless a lease pins one. */
  GPU_IMAGE_NAME: z._default(
    z.string().check(z.regex(IMAGE_NAME_PATTERN, 'must be 1-64 of a-z 0-9 . _ -')),
    'gpu',
  ),
};

/** The GPU regions with the home region first, whatever order the list came in. */
export function gpuRegions(config: EnvOf<typeof regionsEnv>): string[] {
  const listed = config.GPU_REGIONS ?? [];
  return [config.AWS_REGION, ...listed.filter((region) => region !== config.AWS_REGION)];
}

/**
 * EC2 in every GPU region, one client per region. `capabilities` are what the
 * function does with it, and all it is granted.
 */
export const ec2Compute = (...capabilities: readonly Ec2Capability[]) =>
  portFactory({
    env: {
      ...regionsEnv,
      /** Value of the `gpurent:fleet` tag on each region's subnets and launch template. */
      FLEET_NAME: nonEmpty,
    },
    reaches: [{ kind: 'gpuRegions' }, { kind: 'ec2', capabilities }],
    create: (env, clients): Compute =>
      new Ec2Compute({
        regions: gpuRegions(env),
        fleetName: env.FLEET_NAME,
        clientFor: (region) => ec2Client(clients, region),
      }),
  });

/** The placement settings, read once; the offerings that refused capacity are remembered per container. */
export const placementSettings = () =>
  portFactory({
    env: placementEnv,
    reaches: [{ kind: 'gpuRegions' }],
    create: (env): PlacementSettings => ({
      regions: gpuRegions(env),
      costs: env.PLACEMENT_COSTS ?? DEFAULT_PLACEMENT_COSTS,
      spotPriceSource: env.SPOT_PRICE_SOURCE,
      spotCatalogRatio: env.SPOT_CATALOG_RATIO,
      spotPriceNote: env.SPOT_PRICE_NOTE,
      defaultImage: env.GPU_IMAGE_NAME,
      unavailable: new UnavailableOfferings(),
    }),
  });
