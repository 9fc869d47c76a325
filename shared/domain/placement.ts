import type { RentalMode } from './lease';
import { formatUsd, type MicroUsd } from './money';
import { type PlacementCosts, placementOverheadMicroUsd } from './placement-costs';
import { instancesOfShare } from './waste/fractional';

/**
 * After a launch fails for lack of capacity (or the pool's spot capacity is
 * reclaimed), the pool sits out this long before it is tried again, as
 * Karpenter does with its unavailable-offerings cache: capacity rarely comes
 * back within minutes, and retrying it would only delay the lease.
 */
export const FAILED_POOL_BACKOFF_MS = 3 * 60_000;

/** One place capacity can come from: (region, zone, instance type, rental mode), with its price now. */
export interface Pool {
  readonly region: string;
  readonly zone: string;
  readonly instanceType: string;
  readonly mode: RentalMode;
  /** Price of one instance of the type per hour. */
  readonly priceMicroUsdPerHour: MicroUsd;
  /** Whether capacity is believed to be there now (spot capacity history); on-demand pools are always available. */
  readonly available: boolean;
  /** When a launch into this pool last failed for lack of capacity, or its capacity was reclaimed. */
  readonly lastCapacityFailureAtMs?: number | undefined;
  /** GPUs on one instance of the type; 1 when absent. */
  readonly gpusPerInstance?: number | undefined;
  /** Where the price comes from, for people reading a pool listing. */
  readonly priceSource?: PriceSource | undefined;
  /** The reserved commitment a reserved pool draws on, and its EC2 capacity reservation if any. */
  readonly commitmentId?: string | undefined;
  readonly capacityReservationId?: string | undefined;
}

/**
 * `catalog`: the bundled price catalog; `ec2-spot-price-history`: the spot price
 * EC2 publishes now; `catalog-spot-ratio`: catalog on-demand × the configured
 * spot ratio (when EC2 publishes none, and always locally, where the emulator's
 * spot price is a placeholder); `commitment`: a reserved commitment's own rate.
 */
export type PriceSource = 'catalog' | 'ec2-spot-price-history' | 'catalog-spot-ratio' | 'commitment';

export interface PlacementRequest {
  /** One acceptable instance type; with `instanceTypes`, either may be named. */
  readonly instanceType?: string | undefined;
  /** Acceptable instance types (for example every type of one GPU model). */
  readonly instanceTypes?: readonly string[] | undefined;
  readonly mode: RentalMode;
  readonly nowMs: number;
  /** GPUs the lease asks for (or a fraction of one); a pool takes them as whole instances, never more. Default 1. */
  readonly gpus?: number | undefined;
  /** Where the lease's data lives: pools elsewhere pay the latency penalty and the transfer. */
  readonly dataRegion?: string | undefined;
  readonly dataGb?: number | undefined;
  /** Ceiling on the hourly price of all the lease's instances together. */
  readonly maxHourlyMicroUsd?: MicroUsd | undefined;
  /** Latency penalties and transfer rates; without them location costs nothing. */
  readonly costs?: PlacementCosts | undefined;
}

/** The chosen pool, or null when no pool of the mode can take the lease now; `reason` says why either way. */
export interface Placement {
  readonly pool: Pool | null;
  /** Instances of the pool's type the lease needs. */
  readonly instances: number;
  /** What the lease's instances cost per hour in the pool. */
  readonly hourlyMicroUsd: MicroUsd;
  /** The ranking score: the first hour's compute, plus latency penalty and data transfer. */
  readonly scoreMicroUsd: MicroUsd;
  readonly reason: string;
  /**
   * No pool chosen, and some pool that would take the lease lacks capacity
   * only for now (no spot capacity, or backed off after a refusal): room may
   * come back, so the lease can wait for it instead of failing.
   */
  readonly shortOfCapacity: boolean;
}

/** A pool as one request sees it: eligible with its cost, or skipped with the reason. */
export type PoolAssessment =
  | {
      readonly eligible: true;
      readonly pool: Pool;
      readonly instances: number;
      readonly hourlyMicroUsd: MicroUsd;
      readonly scoreMicroUsd: MicroUsd;
    }
  | {
      readonly eligible: false;
      readonly pool: Pool;
      readonly skipped: string | null;
      /** Skipped for lack of capacity now (not for its type, GPUs or price). */
      readonly lacksCapacity?: true;
    };

export function poolKey(
  pool: Pick<Pool, 'region' | 'zone' | 'instanceType' | 'mode' | 'commitmentId'>,
): string {
  const commitment = pool.commitmentId === undefined ? '' : `#${pool.commitmentId}`;
  return `${pool.mode}/${pool.region}/${pool.zone}/${pool.instanceType}${commitment}`;
}

export function isBackedOff(pool: Pool, nowMs: number): boolean {
  const failedAt = pool.lastCapacityFailureAtMs;
  return failedAt !== undefined && nowMs - failedAt < FAILED_POOL_BACKOFF_MS;
}

/** The pool as it stands after a capacity failure at `atMs`. */
export function withCapacityFailure(pool: Pool, atMs: number): Pool {
  return { ...pool, lastCapacityFailureAtMs: atMs };
}

/** The request's type list as a set, made once per list: a decision looks at every pool. */
const typeSets = new WeakMap<readonly string[], ReadonlySet<string>>();

function acceptsType(request: PlacementRequest, instanceType: string): boolean {
  if (request.instanceType === instanceType) return true;
  const types = request.instanceTypes;
  if (types === undefined) return false;
  let set = typeSets.get(types);
  if (set === undefined) {
    set = new Set(types);
    typeSets.set(types, set);
  }
  return set.has(instanceType);
}

/**
 * Whether `pool` can take the request and at what cost. Pools of another mode
 * or type are silently out; pools that would fit but cannot now (no capacity,
 * backed off, too dear, GPUs not a multiple of the type's) are named.
 */
export function assessPool(request: PlacementRequest, pool: Pool): PoolAssessment {
  if (pool.mode !== request.mode || !acceptsType(request, pool.instanceType)) {
    return { eligible: false, pool, skipped: null };
  }
  const gpus = request.gpus ?? 1;
  const perInstance = pool.gpusPerInstance ?? 1;
  const where = `${pool.instanceType} in ${pool.zone}`;
  const instances = instancesOfShare(gpus, perInstance);
  if (instances === null) return { eligible: false, pool, skipped: null };
  if (!pool.available)
    return { eligible: false, pool, skipped: `${pool.zone} has no capacity`, lacksCapacity: true };
  if (isBackedOff(pool, request.nowMs)) {
    const ago = Math.round((request.nowMs - (pool.lastCapacityFailureAtMs ?? 0)) / 1000);
    return { eligible: false, pool, skipped: `${pool.zone} failed ${ago} s ago`, lacksCapacity: true };
  }
  const hourlyMicroUsd = instances * pool.priceMicroUsdPerHour;
  if (request.maxHourlyMicroUsd !== undefined && hourlyMicroUsd > request.maxHourlyMicroUsd) {
    return { eligible: false, pool, skipped: `${where} costs $${formatUsd(hourlyMicroUsd)}/h` };
  }
  const overhead = request.costs
    ? placementOverheadMicroUsd(request.costs, request.dataRegion, pool.region, request.dataGb ?? 0)
    : 0;
  return { eligible: true, pool, instances, hourlyMicroUsd, scoreMicroUsd: hourlyMicroUsd + overhead };
}

/**
 * The pool with the lowest score (the first hour's compute for the GPUs asked,
 * plus the latency penalty and data transfer when it is away from the data)
 * among those of the requested mode and types that have capacity, have not
 * failed within the back-off and fit the price ceiling; at equal cost fewer
 * instances win, then the callers' order, so a caller lists its preferred
 * regions first. Linear in the pools:
 * the planner calls it for every launch it replays, the worker for every try.
 */
export function choosePool(request: PlacementRequest, pools: readonly Pool[]): Placement {
  let best: Extract<PoolAssessment, { eligible: true }> | null = null;
  const skipped: string[] = [];
  let shortOfCapacity = false;
  for (const pool of pools) {
    const assessment = assessPool(request, pool);
    if (!assessment.eligible) {
      if (assessment.skipped !== null) skipped.push(assessment.skipped);
      if (assessment.lacksCapacity) shortOfCapacity = true;
    } else if (best === null || better(assessment, best)) {
      best = assessment;
    }
  }
  const skippedText = skipped.length > 0 ? ` (skipped: ${skipped.join(', ')})` : '';
  if (best === null) {
    const types = request.instanceTypes?.join('|') ?? request.instanceType ?? 'no type';
    return {
      pool: null,
      instances: 0,
      hourlyMicroUsd: 0,
      scoreMicroUsd: 0,
      reason: `no ${request.mode} pool for ${types} can launch now${skippedText}`,
      shortOfCapacity,
    };
  }
  return {
    ...best,
    reason: `${describe(request, best)}, the cheapest open pool${skippedText}`,
    shortOfCapacity: false,
  };
}

/** Every eligible pool, best first (stable between equal scores), for listings and tables. */
export function rankPools(request: PlacementRequest, pools: readonly Pool[]): PoolAssessment[] {
  const assessed = pools.map((pool) => assessPool(request, pool));
  const eligible = assessed.filter((a): a is Extract<PoolAssessment, { eligible: true }> => a.eligible);
  return eligible.sort((a, b) => a.scoreMicroUsd - b.scoreMicroUsd || a.instances - b.instances);
}

type Eligible = Extract<PoolAssessment, { eligible: true }>;

/** Lower score wins; at the same score fewer, larger instances (fewer boots and one-minute minimums). */
function better(candidate: Eligible, best: Eligible): boolean {
  if (candidate.scoreMicroUsd !== best.scoreMicroUsd) return candidate.scoreMicroUsd < best.scoreMicroUsd;
  return candidate.instances < best.instances;
}

function describe(request: PlacementRequest, best: Extract<PoolAssessment, { eligible: true }>): string {
  const { pool } = best;
  const named =
    best.instances > 1
      ? `${best.instances} × ${pool.instanceType} `
      : request.instanceTypes
        ? `${pool.instanceType} `
        : '';
  const away =
    best.scoreMicroUsd > best.hourlyMicroUsd
      ? ` + $${formatUsd(best.scoreMicroUsd - best.hourlyMicroUsd)} away from ${request.dataRegion}`
      : '';
  return `${request.mode} ${named}${pool.zone} at $${formatUsd(best.hourlyMicroUsd)}/h${away}`;
}
