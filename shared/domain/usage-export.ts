import type { LeaseView } from './lease';

/** Columns of `GET /v1/usage/export`; the planner's replay reads the same header. */
export const USAGE_EXPORT_HEADER = 'lease_id,workload,mode,instance_type,gpus,started_at,ended_at,project';
/** The header before leases had a project label; the planner still reads such exports. */
export const USAGE_EXPORT_HEADER_V1 = 'lease_id,workload,mode,instance_type,gpus,started_at,ended_at';

/**
 * One row per lease that ran during [fromMs, toMs): from its first launch to its
 * last instance's end (empty while any instance still runs).
 */
export function usageExportCsv(leases: readonly LeaseView[], fromMs: number, toMs: number): string {
  const rows = [USAGE_EXPORT_HEADER];
  for (const lease of leases) {
    const span = leaseSpanWithin(lease, fromMs, toMs);
    if (!span) continue;
    const { startedAtMs, endedAtMs } = span;
    const first = lease.instances[0];
    rows.push(
      [
        lease.leaseId,
        lease.workload,
        first?.mode ?? '',
        lease.instanceType,
        lease.gpus,
        new Date(startedAtMs).toISOString(),
        endedAtMs === undefined ? '' : new Date(endedAtMs).toISOString(),
        lease.project ?? '',
      ].join(','),
    );
  }
  return `${rows.join('\n')}\n`;
}

/** When a lease used GPUs: its first launch to its last instance's end (undefined while any still runs). */
export interface LeaseSpan {
  readonly startedAtMs: number;
  readonly endedAtMs: number | undefined;
}

/** The lease's span if it ran during [fromMs, toMs); the export and the monthly audit take the same leases. */
export function leaseSpanWithin(lease: LeaseView, fromMs: number, toMs: number): LeaseSpan | undefined {
  if (lease.instances.length === 0) return undefined;
  const startedAtMs = Math.min(...lease.instances.map((i) => i.launchedAtMs));
  const running = lease.instances.some((i) => i.endedAtMs === undefined);
  const endedAtMs = running ? undefined : Math.max(...lease.instances.map((i) => i.endedAtMs ?? 0));
  if (startedAtMs >= toMs || (endedAtMs !== undefined && endedAtMs < fromMs)) return undefined;
  return { startedAtMs, endedAtMs };
}
