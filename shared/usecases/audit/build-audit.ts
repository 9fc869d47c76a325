import { waitsOf } from '../../domain/admission/queue-figures';
import {
  type AuditRecommendation,
  buildMonthlyAudit,
  type MonthlyAudit,
} from '../../domain/audit/monthly-audit';
import type { PriceCatalog } from '../../domain/catalog';
import { UTILIZATION_HOUR_MS } from '../../domain/gpu-utilization';
import { formatUsd } from '../../domain/money';
import { monthBounds } from '../../domain/spend';
import { tasksOf } from '../../domain/tasks/task-time';
import { monthDemand } from '../../planning/month-demand';
import { type MonthRecommendation, recommendForMonth } from '../../planning/month-recommendation';
import type { SpotTraceSource } from '../../ports/audits';
import type { SpendCounters } from '../../ports/budgets';
import type { CommitmentRepository } from '../../ports/commitments';
import type { FleetStorageLedger } from '../../ports/fleet-storage';
import type { IdleLedger } from '../../ports/idle';
import type { LeaseRepository } from '../../ports/lease-repository';
import type { MetricReader } from '../../ports/metrics';
import { readGpuUtilization } from '../gpu-utilization';
import { leasesInRange } from '../leases-in-range';

export interface AuditBuildDeps {
  readonly leases: LeaseRepository;
  readonly commitments: Pick<CommitmentRepository, 'idleInMonth'>;
  /** The GPU telemetry (CloudWatch agent metrics). */
  readonly metrics: MetricReader;
  readonly spend: SpendCounters;
  /** The fleet's storage overhead: warm pools' stopped machines are metered to the fleet. */
  readonly fleetStorage: Pick<FleetStorageLedger, 'monthTotal'>;
  /** The waste ledger: what idle GPU time cost, by project and lease. */
  readonly idleLedger: Pick<IdleLedger, 'dailyIdle'>;
  readonly spotTraces: SpotTraceSource;
  readonly catalog: PriceCatalog;
  readonly region: string;
}

/**
 * A tenant's audit of `month` (to date while it runs): cost by mode from the
 * daily rollups, spot savings at catalog prices, the fleet's idle reserved
 * time, the tenant's interruptions, GPU utilization, idle GPU cost, task time and waits for admission, and the planner's
 * replay of the month's leases with the live policies.
 */
export async function buildAudit(
  deps: AuditBuildDeps,
  tenantId: string,
  month: string,
  nowMs: number,
): Promise<MonthlyAudit> {
  const { startMs, endMs } = monthBounds(month);
  const untilMs = Math.min(endMs, nowMs);
  // The month bounds the read: the leases of the month, not the tenant's whole history.
  const [rollups, dimensions, fleetStorageMicroUsd, leases, spot, idleReserved, idleRollups] =
    await Promise.all([
      deps.spend.dailyUsage(tenantId, `${month}-01`, `${month}-31`),
      deps.spend.dimensionDailyUsage(tenantId, `${month}-01`, `${month}-31`),
      deps.fleetStorage.monthTotal(month),
      leasesInRange(deps, tenantId, startMs, Math.max(untilMs, startMs + 1)),
      deps.spotTraces.load(),
      deps.commitments.idleInMonth(month),
      deps.idleLedger.dailyIdle(tenantId, `${month}-01`, `${month}-31`),
    ]);
  const demand = monthDemand(leases, startMs, untilMs);
  const gpus = await readGpuUtilization(deps.metrics, deps.catalog, leases, {
    fromMs: startMs,
    toMs: untilMs,
    nowMs,
    periodMs: UTILIZATION_HOUR_MS,
  });
  return buildMonthlyAudit({
    tenantId,
    month,
    nowMs,
    region: deps.region,
    catalog: deps.catalog,
    rollups,
    dimensions,
    fleetStorageMicroUsd,
    spans: demand.ran,
    idleReserved,
    instances: leases.flatMap((lease) =>
      lease.instances.map((i) => ({ workload: lease.workload, interruptedAtMs: i.interruptedAtMs })),
    ),
    gpus,
    tasks: tasksOf(leases),
    waits: waitsOf(leases, nowMs),
    idleRollups,
    recommendation: demand.ran.length === 0 ? null : inAuditTerms(recommendForMonth(demand, spot)),
  });
}

function inAuditTerms(r: MonthRecommendation): Omit<AuditRecommendation, 'estimatedSavingOfPaidMicroUsd'> {
  const { assumptions: _assumptions, ...model } = r.model;
  const { interruptions: _interruptions, ...figures } = r;
  return {
    ...figures,
    model: {
      ...model,
      note:
        `The planner replays the month at its own model's prices: every GPU a ${model.instanceType} (1x V100), ` +
        `on-demand $${formatUsd(model.onDemandMicroUsdPerHour)}/h and reserved ` +
        `$${formatUsd(model.reservedMicroUsdPerHour)}/h (us-east-1), spot from the public V100 traces. ` +
        'Savings compare the month as it ran with the policy at those same prices; the saving of what was ' +
        'paid applies that share to the bill. Reserved GPUs are sized for the next 30-day term from this ' +
        "month's training and inference demand.",
    },
  };
}
