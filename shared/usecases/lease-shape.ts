import type { InstanceOffering } from '../domain/catalog';
import { parseImageRef } from '../domain/images';
import type { Lease, RentalMode, Workload } from '../domain/lease';
import { usdToMicro } from '../domain/money';
import { assessPool } from '../domain/placement';
import { refusedModeReason } from '../domain/rental-mode';
import { instancesOfShare, isGpuFraction } from '../domain/waste/fractional';
import {
  ModeNotAvailableError,
  NoSuchGpuFractionError,
  PriceBelowEveryPoolError,
  UnknownGpuModelError,
  UnknownImageError,
  UnknownRegionError,
  UnsupportedInstanceTypeError,
} from '../errors';
import type { ControlPlane } from './dependencies';
import { livePools } from './pools';
import { usableCommitments } from './reserved-slots';

/** Where and on what a lease may run, as the tenant asked. */
export interface PlacementAsk {
  readonly workload: Workload;
  readonly gpus: number;
  readonly instanceType?: string | undefined;
  readonly gpuModel?: string | undefined;
  readonly mode?: RentalMode | undefined;
  readonly regions?: readonly string[] | undefined;
  readonly dataRegion?: string | undefined;
  readonly dataGb?: number | undefined;
  readonly maxHourlyPrice?: number | undefined;
  /** `name:version` of a registered image version. */
  readonly image?: string | undefined;
}

/** The placement fields a lease is stored with, once checked. */
export type LeaseShape = Pick<
  Lease,
  'instanceType' | 'gpuModel' | 'regions' | 'dataRegion' | 'dataGb' | 'maxHourlyMicroUsd' | 'image'
>;

type Deps = Pick<ControlPlane, 'catalog' | 'compute' | 'placement' | 'images'>;

/**
 * Checks a lease's placement fields against the catalog and the GPU regions
 * before anything is written: unknown regions, GPU models and types, a GPU
 * count the type cannot hold whole, and a price ceiling below every pool are
 * refused with a typed error. With a GPU model the lease records the smallest
 * type of that model as its provisional type; the placement names the real one.
 */
export async function resolveLeaseShape(
  deps: Deps,
  ask: PlacementAsk,
  defaultInstanceType: string,
): Promise<LeaseShape> {
  const regions = allowedRegions(deps, ask);
  if (ask.image !== undefined) await checkImage(deps, ask.image, regions);

  const instanceTypes = candidateInstanceTypes(deps, ask, regions, defaultInstanceType);

  const maxHourlyMicroUsd = ask.maxHourlyPrice === undefined ? undefined : usdToMicro(ask.maxHourlyPrice);
  if (maxHourlyMicroUsd !== undefined) {
    const modes: RentalMode[] =
      ask.workload === 'inference' || ask.mode === 'on-demand' || ask.mode === 'reserved'
        ? ['on-demand']
        : ['on-demand', 'spot'];
    // A price floor, not a capacity check: pools that refused lately still count.
    const pools = await livePools(deps, { instanceTypes, regions, modes, nowMs: 0 });
    const costs = modes.flatMap((mode) =>
      pools.map((pool) =>
        assessPool(
          { instanceTypes, mode, nowMs: 0, gpus: ask.gpus },
          { ...pool, available: true, lastCapacityFailureAtMs: undefined },
        ),
      ),
    );
    const hourly = costs.flatMap((a) => (a.eligible ? [a.hourlyMicroUsd] : []));
    const cheapest = hourly.length > 0 ? Math.min(...hourly) : undefined;
    if (cheapest === undefined || cheapest > maxHourlyMicroUsd) {
      throw new PriceBelowEveryPoolError(maxHourlyMicroUsd, cheapest);
    }
  }

  return {
    instanceType: instanceTypes[0] as string,
    gpuModel: ask.gpuModel === undefined ? undefined : deps.catalog.gpuModelNamed(ask.gpuModel),
    regions: ask.regions,
    dataRegion: ask.dataRegion,
    dataGb: ask.dataGb,
    maxHourlyMicroUsd,
    image: ask.image,
  };
}

/** A pinned image must be a registered version with an AMI in at least one allowed region. */
async function checkImage(
  deps: Pick<Deps, 'images'>,
  ref: string,
  regions: readonly string[],
): Promise<void> {
  const parsed = parseImageRef(ref);
  if (!parsed) throw new UnknownImageError(ref, 'must be name:version, each 1-64 of a-z 0-9 . _ -');
  const version = await deps.images.getVersion(parsed.name, parsed.version);
  if (!version) throw new UnknownImageError(ref, 'no such version is registered');
  if (!regions.some((region) => version.amiByRegion[region] !== undefined)) {
    throw new UnknownImageError(ref, `it has no AMI in ${regions.join(', ')}`);
  }
}

/**
 * The instance types a lease accepts in `regions`: every type of its GPU model
 * that holds its GPUs as whole instances (fewest GPUs, then vCPUs, per instance first), or
 * the one type it names (or the default), refused when it cannot. A fraction
 * of a GPU with no type named takes every type of that fraction (g6f, gr6f);
 * a fraction no type of the model (or of the allowed regions) offers is refused.
 */
export function candidateInstanceTypes(
  deps: Pick<Deps, 'catalog'>,
  ask: Pick<PlacementAsk, 'gpus' | 'gpuModel' | 'instanceType'>,
  regions: readonly string[],
  defaultInstanceType: string,
): string[] {
  const holds = (o: InstanceOffering) => instancesOfShare(ask.gpus, o.gpuCount) !== null;
  const fraction = isGpuFraction(ask.gpus);
  if (ask.gpuModel !== undefined || (fraction && ask.instanceType === undefined)) {
    const ofModel = deps.catalog.typesFor({ gpuModel: ask.gpuModel }, regions);
    const offerings = ofModel.filter(holds).sort(smallestFirst);
    if (offerings.length > 0) return offerings.map((o) => o.instanceType);
    if (ask.gpuModel === undefined || (fraction && ofModel.length > 0)) {
      throw new NoSuchGpuFractionError(
        ask.gpus,
        ask.gpuModel,
        fractionsOf(deps.catalog.typesFor({}, regions)),
      );
    }
    throw new UnknownGpuModelError(ask.gpuModel, modelsIn(deps, regions));
  }
  const instanceType = ask.instanceType ?? defaultInstanceType;
  const offering = deps.catalog.typesFor({ instanceType }, regions)[0];
  if (!offering || !holds(offering)) {
    const fitting = deps.catalog
      .typesFor({}, regions)
      .filter(holds)
      .map((o) => o.instanceType)
      .sort();
    throw new UnsupportedInstanceTypeError(instanceType, fitting, ask.gpus);
  }
  return [instanceType];
}

/** The regions a request may use, after refusing any the deployment has no fleet in. */
export function allowedRegions(
  deps: Pick<Deps, 'catalog' | 'placement'>,
  ask: Pick<PlacementAsk, 'regions' | 'dataRegion'>,
): readonly string[] {
  const gpuRegions = deps.placement.regions;
  for (const region of ask.regions ?? []) {
    if (!gpuRegions.includes(region)) throw new UnknownRegionError('regions', region, gpuRegions);
  }
  if (ask.dataRegion !== undefined && !deps.catalog.knowsRegion(ask.dataRegion)) {
    throw new UnknownRegionError('dataRegion', ask.dataRegion, gpuRegions);
  }
  return ask.regions ?? gpuRegions;
}

const smallestFirst = (a: InstanceOffering, b: InstanceOffering) =>
  a.gpuCount - b.gpuCount || a.vcpu - b.vcpu || a.instanceType.localeCompare(b.instanceType);

/** Which GPU models offer which fractions, for the error that refuses a fraction. */
function fractionsOf(offerings: readonly InstanceOffering[]): string[] {
  const fractional = offerings.filter((o) => isGpuFraction(o.gpuCount));
  return [...new Set(fractional.map((o) => `${o.gpuCount} of ${o.gpuModel} (${o.instanceType})`))].sort();
}

function modelsIn(deps: Pick<Deps, 'catalog'>, regions: readonly string[]): string[] {
  return [...new Set(deps.catalog.typesFor({}, regions).map((o) => o.gpuModel))].sort();
}

/**
 * Refuses a mode the lease asks for and could never get (refusedModeReason),
 * before anything is written; only a reserved ask reads the commitments.
 */
export async function assertModeCanBeHad(
  deps: Pick<ControlPlane, 'catalog' | 'placement' | 'commitments' | 'now'>,
  ask: PlacementAsk,
  defaultInstanceType: string,
): Promise<void> {
  if (ask.mode !== 'reserved' && ask.mode !== 'spot') return;
  let usable = 0;
  if (ask.mode === 'reserved') {
    const regions = allowedRegions(deps, ask);
    const instanceTypes = candidateInstanceTypes(deps, ask, regions, defaultInstanceType);
    usable = (await usableCommitments(deps, instanceTypes, regions, deps.now())).length;
  }
  const reason = refusedModeReason({
    workload: ask.workload,
    requestedMode: ask.mode,
    usableCommitments: usable,
  });
  if (reason !== undefined) throw new ModeNotAvailableError(ask.mode, reason);
}
