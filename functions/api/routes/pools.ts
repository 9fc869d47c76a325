import { type RentalMode, WORKLOADS } from '../../../shared/domain/lease';
import { microToUsd } from '../../../shared/domain/money';
import { assessPool, isBackedOff, type PlacementRequest, rankPools } from '../../../shared/domain/placement';
import { leaseGpusSchema } from '../../../shared/domain/waste/fractional';
import { allowedRegions, candidateInstanceTypes } from '../../../shared/usecases/lease-shape';
import { livePools } from '../../../shared/usecases/pools';
import * as z from '../../../shared/zod';
import { type ApiEvent, type ApiResult, json, requireAdmin, validate } from '../http';
import {
  adminErrors,
  errorResponse,
  jsonContent,
  type OpenApiGroup,
  ref,
  responseObject,
  usd,
} from '../openapi-parts';
import type { Routes } from '../routing';
import type { ApiContext } from './context';
import { regionName } from './leases';

const POOL_MODES = ['on-demand', 'spot'] as const satisfies readonly RentalMode[];

const poolsQuery = z
  .strictObject({
    gpus: z._default(z.pipe(z.coerce.number(), leaseGpusSchema), 1),
    gpuModel: z.optional(z.string().check(z.minLength(1), z.maxLength(64))),
    instanceType: z.optional(
      z.string().check(z.regex(/^[a-z0-9-]+\.[a-z0-9]+$/, 'must be an EC2 instance type')),
    ),
    workload: z._default(z.enum(WORKLOADS), 'batch'),
    regions: z.optional(
      z.pipe(
        z.pipe(
          z.string(),
          z.transform((value: string) => value.split(',')),
        ),
        z.array(regionName).check(z.minLength(1)),
      ),
    ),
    dataRegion: z.optional(regionName),
    dataGb: z.optional(z.coerce.number().check(z.nonnegative(), z.lte(1_000_000))),
  })
  .check(
    z.refine((query) => query.instanceType === undefined || query.gpuModel === undefined, {
      message: 'name either instanceType or gpuModel, not both',
      path: ['gpuModel'],
    }),
  );

/**
 * GET /v1/pools (admin): every pool of the GPU regions with its price, where
 * the price comes from, its availability mark and its rank (per mode, 1 =
 * what choosePool would try first) for a sample request given in the query.
 */
export async function listPools(event: ApiEvent, ctx: ApiContext): Promise<ApiResult> {
  requireAdmin(event);
  const query = validate(poolsQuery, event.queryStringParameters ?? {}, 'query');
  const { deps } = ctx;
  const regions = allowedRegions(deps, query);
  const named = query.gpuModel !== undefined || query.instanceType !== undefined;
  const instanceTypes = named
    ? candidateInstanceTypes(deps, query, regions, '')
    : deps.catalog.typesFor({}, regions).map((o) => o.instanceType);
  const nowMs = deps.now();
  const pools = await livePools(deps, { instanceTypes, regions, modes: POOL_MODES, nowMs });
  const rows = POOL_MODES.flatMap((mode) => {
    const request: PlacementRequest = {
      instanceTypes,
      mode,
      nowMs,
      gpus: query.gpus,
      dataRegion: query.dataRegion,
      dataGb: query.dataGb,
      costs: deps.placement.costs,
    };
    const rank = new Map(rankPools(request, pools).map((assessment, index) => [assessment.pool, index + 1]));
    return pools
      .filter((pool) => pool.mode === mode)
      .map((pool) => {
        const assessment = assessPool(request, pool);
        return {
          region: pool.region,
          zone: pool.zone,
          instanceType: pool.instanceType,
          mode: pool.mode,
          gpusPerInstance: pool.gpusPerInstance ?? 1,
          pricePerHourUsd: microToUsd(pool.priceMicroUsdPerHour),
          priceSource: pool.priceSource,
          mark: !pool.available ? 'no-capacity' : isBackedOff(pool, nowMs) ? 'refused-recently' : 'available',
          rank: rank.get(pool) ?? null,
          ...(assessment.eligible
            ? {
                instances: assessment.instances,
                hourlyUsd: microToUsd(assessment.hourlyMicroUsd),
                scoreUsd: microToUsd(assessment.scoreMicroUsd),
              }
            : {
                notEligible:
                  assessment.skipped ?? `${query.gpus} GPUs do not fill whole ${pool.instanceType} instances`,
              }),
        };
      });
  });
  return json(200, {
    sample: { ...query, regions },
    spotPriceNote:
      deps.placement.spotPriceNote ??
      (deps.placement.spotPriceSource === 'ec2'
        ? 'spot: the price EC2 publishes now (DescribeSpotPriceHistory); catalog on-demand × SPOT_CATALOG_RATIO where it publishes none'
        : `spot: catalog on-demand × ${deps.placement.spotCatalogRatio}`),
    pools: rows.sort((a, b) => a.mode.localeCompare(b.mode) || (a.rank ?? Infinity) - (b.rank ?? Infinity)),
  });
}

export const poolRoutes = {
  'GET /v1/pools': { handle: listPools },
} as const satisfies Routes;

export const poolOpenApi = (): OpenApiGroup<keyof typeof poolRoutes> => ({
  tag: { name: 'Pools', description: 'For operators: the capacity pools placement chooses from' },
  schemas: {
    Pool: responseObject(
      {
        region: { type: 'string' },
        zone: { type: 'string' },
        instanceType: { type: 'string' },
        mode: { type: 'string', enum: POOL_MODES },
        gpusPerInstance: { type: 'number', description: 'A fraction for fractional-GPU types (g6f, gr6f)' },
        pricePerHourUsd: usd,
        priceSource: {
          type: 'string',
          enum: ['catalog', 'ec2-spot-price-history', 'catalog-spot-ratio', 'commitment'],
        },
        mark: { type: 'string', enum: ['available', 'no-capacity', 'refused-recently'] },
        rank: {
          type: ['integer', 'null'],
          description: 'Order choosePool tries the pool in for the sample, per mode',
        },
        instances: { type: 'integer' },
        hourlyUsd: usd,
        scoreUsd: { type: 'number', description: 'Hourly cost + latency penalty + data transfer, USD' },
        notEligible: { type: 'string' },
      },
      ['instances', 'hourlyUsd', 'scoreUsd', 'notEligible'],
    ),
  },
  operations: {
    'GET /v1/pools': {
      operationId: 'listPools',
      summary: 'Admin: every pool of the GPU regions, priced and ranked for a sample request',
      description:
        'Each pool with its price and where the price comes from, its availability mark and its rank per mode (1: what placement would try first) for the sample request the query describes.',
      parameters: [
        {
          name: 'gpus',
          in: 'query',
          description: 'Whole GPUs (1-8), or 0.125, 0.25 or 0.5 of one GPU',
          schema: { type: 'number', enum: [0.125, 0.25, 0.5, 1, 2, 3, 4, 5, 6, 7, 8], default: 1 },
        },
        { name: 'gpuModel', in: 'query', schema: { type: 'string' } },
        { name: 'instanceType', in: 'query', schema: { type: 'string' } },
        { name: 'workload', in: 'query', schema: { type: 'string', enum: WORKLOADS, default: 'batch' } },
        { name: 'regions', in: 'query', schema: { type: 'string' }, description: 'Comma-separated' },
        { name: 'dataRegion', in: 'query', schema: { type: 'string' } },
        { name: 'dataGb', in: 'query', schema: { type: 'number' } },
      ],
      responses: {
        '200': {
          description: 'Pools; spotPriceNote says how spot is priced here',
          content: jsonContent(
            responseObject({
              sample: { type: 'object' },
              spotPriceNote: { type: 'string' },
              pools: { type: 'array', items: ref('Pool') },
            }),
          ),
        },
        '400': errorResponse(
          'VALIDATION_FAILED, UNKNOWN_REGION, UNKNOWN_GPU_MODEL or UNSUPPORTED_INSTANCE_TYPE',
        ),
        ...adminErrors,
      },
    },
  },
});
