import { chargeUpTo } from '../domain/billing';
import { type ChargeEntry, entryMicroUsd } from '../domain/charge-batches';
import type { LeaseInstance, RentalMode } from '../domain/lease';
import type { PriceChange } from '../domain/price-changes';
import { warnedInstanceEnd } from '../domain/spot-reclaim';
import { instanceExtrasAt } from '../domain/storage-billing';
import type { InstanceRef, MeteringWorkQueue } from '../ports/metering-work';
import type { ControlPlane } from './dependencies';
import { priceChangesOf } from './price-history';

type Deps = Pick<ControlPlane, 'leases' | 'ledger' | 'spotPrices'>;
/** The scheduled run also gauges the fleet, in GPUs: it needs each type's GPU count. */
type TickDeps = Deps & Pick<ControlPlane, 'catalog'>;

/** What one metering run charged. */
export interface ChargeSummary {
  readonly instances: number;
  readonly charged: number;
  readonly microUsd: number;
  /** Instances handed to another invocation because this one was running out of time. */
  readonly deferred: number;
}

/** The scheduled run's summary: it read the whole open list, so it also tells the fleet's size. */
export interface TickSummary extends ChargeSummary {
  /** Open (running, billed) instances by rental mode and region: the fleet as billed now. */
  readonly fleet: readonly FleetGauge[];
  /** Leases with at least one open instance. */
  readonly runningLeases: number;
}

/** Open instances of one rental mode in one region (undefined: the home region, on records from before regions). */
export interface FleetGauge {
  readonly mode: RentalMode;
  readonly region: string | undefined;
  readonly instances: number;
  /** Their GPUs (a g5.12xlarge counts 4). */
  readonly gpus: number;
}

export interface MeteringRunOptions {
  /** Milliseconds this invocation has left (Lambda's `getRemainingTimeInMillis`). */
  readonly remainingMs?: () => number;
  /** Takes the instances a run has no time left for; they are charged up to the same instant. */
  readonly overflow?: MeteringWorkQueue;
}

/** Charges handed to the ledger at once: enough for many full transactions, small enough to stop in time. */
const CHUNK = 2_000;
/** Stop starting chunks when less than this is left: a chunk, and the hand-over, must still fit. */
const RESERVE_MS = 15_000;

/**
 * One metering tick: charges every open instance up to `atMs`, the scheduled
 * time of the tick (not the wall clock), so a re-delivered tick lands on the same
 * instant and finds nothing left to charge. Charges go to the ledger in batches;
 * what would not fit this invocation's time goes to the overflow queue, never
 * dropped.
 */
export async function meterOpenInstances(
  deps: TickDeps,
  atMs: number,
  options: MeteringRunOptions = {},
): Promise<TickSummary> {
  const instances = await deps.leases.openInstances();
  const summary = await meterInstances(deps, instances, atMs, options);
  return {
    ...summary,
    fleet: fleetOf(instances, (type) => deps.catalog.gpusPerInstance(type)),
    runningLeases: new Set(instances.map((i) => `${i.tenantId}/${i.leaseId}`)).size,
  };
}

/** Charges work a run deferred: the instances are read again, so their checkpoints are current. */
export async function meterDeferred(
  deps: Deps,
  atMs: number,
  refs: readonly InstanceRef[],
): Promise<ChargeSummary> {
  const instances = (await deps.leases.instancesByRef(refs)).filter((instance) => instance.meteringOpen);
  return meterInstances(deps, instances, atMs, {});
}

/**
 * What an instance owes at a tick. An instance whose end is stamped is charged
 * up to that end and no further, and the charge closes its bill: a tick finishes
 * what a release that died half-way left open. A warned instance not ended yet
 * is charged up to its two minutes and no further: gpurent ends it then, and
 * a late end is gpurent's cost, not the tenant's.
 */
function chargeEntryAt(
  instance: LeaseInstance,
  atMs: number,
  priceChanges: readonly PriceChange[] | undefined,
): ChargeEntry {
  const { endedAtMs, interruptedAtMs } = instance;
  if (endedAtMs === undefined || atMs < endedAtMs) {
    // A warned instance is billed no further than its two minutes, its volume included.
    const untilMs = interruptedAtMs === undefined ? atMs : warnedInstanceEnd(interruptedAtMs, atMs);
    return {
      instance,
      charge: chargeUpTo({ ...instance, priceChanges }, instance, untilMs, false),
      atMs: untilMs,
      ...instanceExtrasAt(instance, untilMs, false),
    };
  }
  return closingEntry(instance, endedAtMs, priceChanges);
}

/**
 * The charge that closes a bill at `endedAtMs`, and never before a charge
 * already made (a tick that slipped in moved the checkpoint on).
 */
function closingEntry(
  instance: LeaseInstance,
  endedAtMs: number,
  priceChanges: readonly PriceChange[] | undefined,
): ChargeEntry {
  const endAt = Math.max(endedAtMs, instance.meteredUntilMs);
  return {
    instance,
    charge: chargeUpTo({ ...instance, priceChanges }, instance, endAt, true),
    atMs: endAt,
    close: { endedAtMs: endAt },
    ...instanceExtrasAt(instance, endAt, true),
  };
}

export async function meterInstances(
  deps: Deps,
  instances: readonly LeaseInstance[],
  atMs: number,
  options: MeteringRunOptions,
): Promise<ChargeSummary> {
  const changesOf = await priceChangesOf(deps, instances);
  const entries = instances
    .map((instance) => chargeEntryAt(instance, atMs, changesOf(instance)))
    .filter((entry) => entry.charge.seconds > 0 || entry.close);
  let charged = 0;
  let microUsd = 0;
  let deferred = 0;
  for (let start = 0; start < entries.length; start += CHUNK) {
    if (options.overflow && options.remainingMs && options.remainingMs() < RESERVE_MS) {
      const rest = entries.slice(start).map(({ instance: { tenantId, leaseId, instanceId } }) => ({
        tenantId,
        leaseId,
        instanceId,
      }));
      await options.overflow.defer(atMs, rest);
      deferred = rest.length;
      break;
    }
    const chunk = entries.slice(start, start + CHUNK);
    const outcomes = await deps.ledger.applyCharges(chunk);
    chunk.forEach((entry, i) => {
      if (outcomes[i] !== 'recorded') return;
      charged += 1;
      microUsd += entryMicroUsd(entry);
    });
  }
  return { instances: instances.length, charged, microUsd, deferred };
}

function fleetOf(
  instances: readonly LeaseInstance[],
  gpusOf: (instanceType: string) => number,
): FleetGauge[] {
  const gauges = new Map<string, FleetGauge>();
  for (const { mode, region, instanceType } of instances) {
    const key = `${mode}|${region ?? ''}`;
    const gauge = gauges.get(key);
    gauges.set(key, {
      mode,
      region,
      instances: (gauge?.instances ?? 0) + 1,
      gpus: (gauge?.gpus ?? 0) + gpusOf(instanceType),
    });
  }
  return [...gauges.values()];
}

const CLOSE_ATTEMPTS = 5;

/** Concurrent ticks kept moving the checkpoint; the release is retried by its queue. */
export class BillCloseContentionError extends Error {
  constructor(
    readonly instanceId: string,
    readonly attempts: number,
  ) {
    super(`Could not close the bill of ${instanceId} in ${attempts} attempts`);
    this.name = 'BillCloseContentionError';
  }
}

/**
 * Closes an instance's bill at `endedAtMs`. A tick that slipped in between the
 * read and the write moves the checkpoint; the close is recomputed from the new
 * one, and never ends before a charge already made.
 */
export async function closeInstanceBill(
  deps: Deps,
  instance: LeaseInstance,
  endedAtMs: number,
  reload: () => Promise<LeaseInstance | undefined>,
): Promise<void> {
  const changesOf = await priceChangesOf(deps, [instance]);
  let current: LeaseInstance | undefined = instance;
  for (let attempt = 0; attempt < CLOSE_ATTEMPTS && current?.meteringOpen; attempt += 1) {
    const [outcome] = await deps.ledger.applyCharges([closingEntry(current, endedAtMs, changesOf(current))]);
    if (outcome === 'recorded') return;
    current = await reload();
  }
  if (current?.meteringOpen) throw new BillCloseContentionError(instance.instanceId, CLOSE_ATTEMPTS);
}
