import { chargeUpTo } from '../domain/billing';
import type { LeaseInstance, RentalMode } from '../domain/lease';
import type { ControlPlane } from './dependencies';

type Deps = Pick<ControlPlane, 'leases' | 'ledger'>;

export interface TickSummary {
  readonly instances: number;
  readonly charged: number;
  readonly microUsd: number;
  /** Open (running, billed) single-GPU instances by rental mode: the fleet as billed now. */
  readonly gpusByMode: Readonly<Partial<Record<RentalMode, number>>>;
  /** Leases with at least one open instance. */
  readonly runningLeases: number;
}

/**
 * One metering tick: charges every open instance up to `atMs`, the scheduled
 * time of the tick (not the wall clock), so a re-delivered tick lands on the same
 * instant and finds nothing left to charge.
 */
export async function meterOpenInstances(deps: Deps, atMs: number): Promise<TickSummary> {
  const open = await deps.leases.openInstances();
  let charged = 0;
  let microUsd = 0;
  for (const instance of open) {
    const charge = chargeUpTo(instance, instance, atMs, false);
    if (charge.seconds === 0) continue;
    if ((await deps.ledger.applyCharge(instance, charge, atMs, null)) === 'recorded') {
      charged += 1;
      microUsd += charge.microUsd;
    }
  }
  const gpusByMode: Partial<Record<RentalMode, number>> = {};
  for (const instance of open) gpusByMode[instance.mode] = (gpusByMode[instance.mode] ?? 0) + 1;
  const runningLeases = new Set(open.map((i) => `${i.tenantId}/${i.leaseId}`)).size;
  return { instances: open.length, charged, microUsd, gpusByMode, runningLeases };
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
  let current: LeaseInstance | undefined = instance;
  for (let attempt = 0; attempt < CLOSE_ATTEMPTS && current?.meteringOpen; attempt += 1) {
    const endAt = Math.max(endedAtMs, current.meteredUntilMs);
    const charge = chargeUpTo(current, current, endAt, true);
    if ((await deps.ledger.applyCharge(current, charge, endAt, { endedAtMs: endAt })) === 'recorded') return;
    current = await reload();
  }
  if (current?.meteringOpen) throw new BillCloseContentionError(instance.instanceId, CLOSE_ATTEMPTS);
}
