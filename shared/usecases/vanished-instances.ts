import type { LeaseInstance } from '../domain/lease';
import type { ComputeInstance } from '../ports/compute';
import type { ControlPlane, InterruptionMarking } from './dependencies';
import { markInterrupted } from './interruptions';
import { instanceRef } from './lease-instances';

/**
 * An instance recorded this recently may not be listed by EC2 yet (its reads
 * are eventually consistent): it is not taken for gone when EC2 does not know it.
 */
export const VANISHED_GRACE_MS = 2 * 60_000;

/**
 * When an instance gpurent still bills ended, if it did: the time of EC2's
 * state transition for a terminated (or shutting-down) instance, else now, the
 * first time it is seen gone; undefined while it lives, or while it is too new
 * for EC2 not knowing it to mean anything.
 */
export function vanishedAt(
  record: LeaseInstance,
  found: ComputeInstance | undefined,
  nowMs: number,
): number | undefined {
  if (found === undefined) return nowMs - record.launchedAtMs < VANISHED_GRACE_MS ? undefined : nowMs;
  if (found.state !== 'shutting-down' && found.state !== 'terminated') return undefined;
  return Math.max(record.launchedAtMs, Math.min(found.endedAtMs ?? nowMs, nowMs));
}

/**
 * Instances whose bill is open and whose end is not stamped, that EC2 no longer
 * runs (terminated behind gpurent's back, or gone without an event reaching
 * the interruption handler): their real end is stamped once, so the meter's
 * next run closes their bill there, and a RUNNING lease that lost one is
 * handled as interrupted, as the handler would have. `live` is what EC2 runs
 * now; the rest are looked up one by one. Returns how many were stamped.
 */
export async function stampVanishedInstances(
  deps: InterruptionMarking & Pick<ControlPlane, 'compute'>,
  live: readonly ComputeInstance[],
): Promise<number> {
  const running = new Set(live.map((instance) => instance.instanceId));
  const nowMs = deps.now();
  const missing = (await deps.leases.openInstances()).filter(
    (record) => record.endedAtMs === undefined && !running.has(record.instanceId),
  );
  let stamped = 0;
  for (const record of missing) {
    const { instanceId, region } = instanceRef(deps, record);
    const endedAtMs = vanishedAt(record, await deps.compute.findInstance(instanceId, [region]), nowMs);
    if (endedAtMs === undefined) continue;
    await deps.leases.stampInstanceEnds([record], endedAtMs);
    stamped += 1;
    const lease = await deps.leases.get(record.tenantId, record.leaseId);
    if (lease?.status === 'RUNNING' && record.interruptedAtMs === undefined) {
      await markInterrupted(deps, lease, record, endedAtMs);
    }
  }
  return stamped;
}
