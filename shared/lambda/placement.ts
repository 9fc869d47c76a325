import { Ec2Compute } from '../adapters/ec2-compute';
import { commaList, nonEmpty } from '../config';
import { IMAGE_NAME_PATTERN } from '../domain/images';
import { DEFAULT_PLACEMENT_COSTS, placementCostsSchema } from '../domain/placement-costs';
import { UnavailableOfferings } from '../domain/unavailable-offerings';
import type { PlacementSettings } from '../usecases/dependencies';
import * as z from '../zod';
import { createEc2Client } from './clients';

const REGION_NAME = /^[a-z]{2}(-gov)?-[a-z]+-\d$/;

const jsonObject = z.pipe(
  z.string(),
  z.transform((text: string, ctx) => {
    try {
      return JSON.parse(text) as unknown;
    } catch {
      ctx.issues.push({ code: 'custom', message: 'must be JSON', input: text });
      return z.NEVER;
    }
  }),
);

/** Environment of every function that places leases or lists pools. */
export const placementConfig = {
  AWS_REGION: nonEmpty,
  /** GPU regions, home region first; default: the home region alone. */
  GPU_REGIONS: z.optional(
    z.pipe(
      commaList,
      z
        .array(z.string().check(z.regex(REGION_NAME, 'must be region names such as us-east-1')))
        .check(z.minLength(1)),
    ),
  ),
  /** Value of the `gpurent:fleet` tag on each region's subnets and launch template. */
  FLEET_NAME: nonEmpty,
  PLACEMENT_COSTS: z.optional(z.pipe(jsonObject, placementCostsSchema)),
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

export interface PlacementConfig {
  readonly AWS_REGION: string;
  readonly GPU_REGIONS?: readonly string[] | undefined;
  readonly FLEET_NAME: string;
  readonly PLACEMENT_COSTS?: PlacementSettings['costs'] | undefined;
  readonly SPOT_PRICE_SOURCE: 'ec2' | 'catalog';
  readonly SPOT_CATALOG_RATIO: number;
  readonly SPOT_PRICE_NOTE?: string | undefined;
  readonly GPU_IMAGE_NAME: string;
}

/** The GPU regions with the home region first, whatever order the list came in. */
export function gpuRegions(config: Pick<PlacementConfig, 'AWS_REGION' | 'GPU_REGIONS'>): string[] {
  const listed = config.GPU_REGIONS ?? [];
  return [config.AWS_REGION, ...listed.filter((region) => region !== config.AWS_REGION)];
}

/** EC2 in every GPU region and the placement settings, one client per region. */
export function createPlacement(config: PlacementConfig) {
  const regions = gpuRegions(config);
  const clients = new Map<string, ReturnType<typeof createEc2Client>>();
  const clientFor = (region: string) => {
    let client = clients.get(region);
    if (!client) {
      client = createEc2Client(region);
      clients.set(region, client);
    }
    return client;
  };
  const placement: PlacementSettings = {
    regions,
    costs: config.PLACEMENT_COSTS ?? DEFAULT_PLACEMENT_COSTS,
    spotPriceSource: config.SPOT_PRICE_SOURCE,
    spotCatalogRatio: config.SPOT_CATALOG_RATIO,
    spotPriceNote: config.SPOT_PRICE_NOTE,
    defaultImage: config.GPU_IMAGE_NAME,
    unavailable: new UnavailableOfferings(),
  };
  return { compute: new Ec2Compute({ regions, fleetName: config.FLEET_NAME, clientFor }), placement };
}
