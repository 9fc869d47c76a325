import type { LeaseInstance } from '../domain/lease';
import { RECLAIM_WARNING_MS, warnedInstanceEnd } from '../domain/spot-reclaim';
import type { ControlPlane } from './dependencies';
import { instanceRef } from './lease-instances';

type Deps = Pick<ControlPlane, 'compute' | 'leases' | 'region' | 'now'>;

/** Warned instances still billed, not yet ended, whose two minutes are up at `nowMs`. */
export function overdueWarned(instances: readonly LeaseInstance[], nowMs: number): LeaseInstance[] {
  return instances.filter(
    (i) =>
      i.meteringOpen &&
      i.endedAtMs === undefined &&
      i.interruptedAtMs !== undefined &&
      nowMs >= i.interruptedAtMs + RECLAIM_WARNING_MS,
  );
}

/**
 * gpurent ends warned instances itself rather than wait for AWS, which may
 * never take them (locally it never does): each is terminated and its end
 * stamped at `warnedInstanceEnd`, so its bill stops at the two minutes at the
 * latest and the lease never pays for it beside its replacement. Returns the
 * records as stamped (the first stamp wins, as for every end).
 */
export async function endWarnedInstances(
  deps: Deps,
  warned: readonly LeaseInstance[],
): Promise<LeaseInstance[]> {
  if (warned.length === 0) return [];
  await deps.compute.terminate(warned.map((i) => instanceRef(deps, i)));
  const nowMs = deps.now();
  for (const record of warned) {
    await deps.leases.stampInstanceEnds([record], warnedInstanceEnd(record.interruptedAtMs ?? nowMs, nowMs));
  }
  return deps.leases.instancesByRef(warned);
}
