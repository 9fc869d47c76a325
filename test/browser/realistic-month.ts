import { priceCatalog } from '../../shared/catalog';
import { buildMonthlyAudit, type DayModeCost, type GpuSpan } from '../../shared/domain/audit/monthly-audit';
import type { MeasuredGpu } from '../../shared/domain/gpu-utilization';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const NOV = Date.parse('2026-11-01T00:00:00Z');

/**
 * A month as a team runs it: on-demand every weekday, reserved all month, a
 * sliver of spot (0.2% of the cost) on a few days, two GPUs most of the time
 * and a burst to six mid-month, one GPU that sent no telemetry and hours of
 * the day where the measured GPU sat at 0%.
 */
export function realisticMonth(month = '2026-11', nowMs = Date.parse('2026-12-01T00:20:00Z')) {
  const rollups: DayModeCost[] = [];
  for (let day = 1; day <= 30; day += 1) {
    const date = `${month}-${String(day).padStart(2, '0')}`;
    const weekday = new Date(NOV + (day - 1) * DAY).getUTCDay() % 6 !== 0;
    rollups.push({
      day: date,
      mode: 'reserved',
      instanceType: 'g5.xlarge',
      seconds: 86_400,
      microUsd: 15_216_000,
    });
    if (weekday) {
      const hours = 8 + (day % 5);
      rollups.push({
        day: date,
        mode: 'on-demand',
        instanceType: 'g5.xlarge',
        seconds: hours * 3600,
        microUsd: hours * 1_006_000,
      });
    }
    if (day % 7 === 3) {
      rollups.push({ day: date, mode: 'spot', instanceType: 'g5.xlarge', seconds: 1_800, microUsd: 150_000 });
    }
  }
  const spans: GpuSpan[] = [
    { gpus: 2, startMs: NOV, endMs: NOV + 30 * DAY },
    { gpus: 3, startMs: NOV + 12 * DAY + 9 * HOUR, endMs: NOV + 14 * DAY + 18 * HOUR },
  ];
  for (let day = 0; day < 30; day += 1) {
    spans.push({ gpus: 1, startMs: NOV + day * DAY + 9 * HOUR, endMs: NOV + day * DAY + 17 * HOUR });
  }
  // Measured from 06:00 to 21:59 UTC: idle (0%) before 08:00, busy in working hours; no agent at night.
  const gpus: MeasuredGpu[] = [
    {
      instanceId: 'i-measured',
      fromMs: NOV,
      toMs: NOV + 30 * DAY,
      periods: Array.from({ length: 30 * 24 }, (_, h) => h)
        .filter((h) => h % 24 >= 6 && h % 24 < 22)
        .map((h) => {
          const hour = h % 24;
          const percent = hour < 8 ? 0 : Math.min(95, 30 + 6 * Math.abs(13 - hour));
          return { startMs: NOV + h * HOUR, sumPercent: 60 * percent, samples: 60 };
        }),
    },
    { instanceId: 'i-silent', fromMs: NOV + 12 * DAY, toMs: NOV + 15 * DAY, periods: [] },
  ];
  return buildMonthlyAudit({
    tenantId: 'acme',
    month,
    nowMs,
    region: 'us-east-1',
    catalog: priceCatalog,
    rollups: rollups.filter((r) => Date.parse(`${r.day}T00:00:00Z`) < nowMs),
    spans,
    gpus,
    idleReserved: [
      {
        commitmentId: 'c1',
        instanceType: 'g5.xlarge',
        committedGpus: 4,
        hourlyMicroUsd: 634_000,
        idleGpuSeconds: 180_000,
        idleMicroUsd: 31_700_000,
      },
    ],
    instances: [{ workload: 'batch', interruptedAtMs: NOV + 3 * DAY + 2 * HOUR }],
    tasks: [],
    waits: [],
    idleRollups: [],
    recommendation: {
      model: {
        instanceType: 'p3.2xlarge',
        onDemandMicroUsdPerHour: 3_060_000,
        reservedMicroUsdPerHour: 1_927_800,
        note: "The planner replays the month at its own model's prices.",
      },
      reservedGpus: 2,
      reservedReason:
        '2 GPUs at once were in use 100% of the last 30 days, above the 63% at which a reserved GPU pays for itself; a 3rd GPU at once only 32% of the time',
      reservedSavingMicroUsd: 12_000_000,
      spotCandidates: [{ workload: 'batch', leases: 4, gpuHours: 40 }],
      asRanMicroUsd: 600_000_000,
      policyMicroUsd: 560_000_000,
      policySavingMicroUsd: 40_000_000,
      recommendedMicroUsd: 548_000_000,
      hindsightMicroUsd: 530_000_000,
      savingShare: 0.087,
    },
  });
}
