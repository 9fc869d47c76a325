import { describe, expect, it } from 'vitest';
import { priceCatalog } from '../../../shared/catalog';
import { ConfigError, readConfig } from '../../../shared/config';
import {
  AuditMonthError,
  auditableMonth,
  monthBefore,
  nextAuditRunAfter,
} from '../../../shared/domain/audit/audit-month';
import { auditSummaryMessage } from '../../../shared/domain/audit/audit-summary';
import { type AuditInput, buildMonthlyAudit, hourlyPeaks } from '../../../shared/domain/audit/monthly-audit';
import { renderAuditReport } from '../../../shared/domain/audit/report-page';
import { spotDataConfig } from '../../../shared/lambda/audit-config';
import { HOUR, NOV_2026 } from './lease-views';

const NOW = Date.parse('2026-11-30T12:00:00Z');

describe('auditable months', () => {
  it('takes this month and earlier ones', () => {
    expect(auditableMonth('2026-11', NOW)).toBe('2026-11');
    expect(auditableMonth('2019-01', NOW)).toBe('2019-01');
  });

  it.each([
    ['2026-13', 'INVALID_MONTH'],
    ['2026-00', 'INVALID_MONTH'],
    ['2026-1', 'INVALID_MONTH'],
    ['2026-11-01', 'INVALID_MONTH'],
    ['', 'INVALID_MONTH'],
    ['2026-12', 'MONTH_IN_FUTURE'],
  ])('refuses %j with %s', (month, code) => {
    expect(() => auditableMonth(month, NOW)).toThrow(AuditMonthError);
    try {
      auditableMonth(month, NOW);
    } catch (error) {
      expect((error as AuditMonthError).code).toBe(code);
    }
  });

  it('fires at 00:30 UTC on the 1st and audits the month before', () => {
    expect(new Date(nextAuditRunAfter(NOW)).toISOString()).toBe('2026-12-01T00:30:00.000Z');
    expect(new Date(nextAuditRunAfter(Date.parse('2026-12-01T00:10:00Z'))).toISOString()).toBe(
      '2026-12-01T00:30:00.000Z',
    );
    expect(new Date(nextAuditRunAfter(Date.parse('2026-12-01T00:30:00Z'))).toISOString()).toBe(
      '2027-01-01T00:30:00.000Z',
    );
    expect(monthBefore(Date.parse('2027-01-01T00:30:00Z'))).toBe('2026-12');
  });
});

describe('hourlyPeaks', () => {
  it('keeps the most GPUs held at once within each hour; a hand-over is not an overlap', () => {
    const spans = [
      { gpus: 1, startMs: 0, endMs: 2 * HOUR },
      { gpus: 2, startMs: 2 * HOUR, endMs: 2.5 * HOUR }, // takes over from the first
      { gpus: 3, startMs: 2.25 * HOUR, endMs: 2.5 * HOUR },
      { gpus: 4, startMs: 4.5 * HOUR, endMs: 9 * HOUR }, // beyond the window
    ];
    expect(hourlyPeaks(spans, 0, 5 * HOUR)).toEqual([1, 1, 5, 0, 4]);
  });
});

describe('buildMonthlyAudit', () => {
  const input: AuditInput = {
    tenantId: 'acme',
    month: '2026-11',
    nowMs: NOW,
    region: 'us-east-1',
    catalog: priceCatalog,
    rollups: [
      { day: '2026-11-02', mode: 'spot', instanceType: 'g5.xlarge', seconds: 7200, microUsd: 800_000 },
      { day: '2026-11-02', mode: 'on-demand', instanceType: 'g5.xlarge', seconds: 3600, microUsd: 1_006_000 },
      { day: '2026-11-03', mode: 'spot', instanceType: 'p3.2xlarge', seconds: 3600, microUsd: 918_000 },
    ],
    spans: [{ gpus: 2, startMs: NOV_2026 + HOUR, endMs: NOV_2026 + 3 * HOUR }],
    recommendation: null,
    idleRollups: [],
    idleReserved: [
      {
        commitmentId: 'a',
        instanceType: 'g5.xlarge',
        committedGpus: 2,
        hourlyMicroUsd: 634_000,
        idleGpuSeconds: 5400,
        idleMicroUsd: 951_000,
      },
      {
        commitmentId: 'b',
        instanceType: 'p3.2xlarge',
        committedGpus: 1,
        hourlyMicroUsd: 1_927_800,
        idleGpuSeconds: 3600,
        idleMicroUsd: 1_927_800,
      },
    ],
    instances: [
      { workload: 'batch', interruptedAtMs: NOV_2026 + 2 * HOUR },
      { workload: 'batch', interruptedAtMs: NOV_2026 - 1 }, // October's
      { workload: 'inference', interruptedAtMs: NOW - 1 },
      { workload: 'training' },
    ],
    // Two GPUs at 00:00-01:00 (30 and 15 samples at 40% and 100%), one at 01:00 (60 samples at 10%).
    gpus: [
      {
        instanceId: 'i-1',
        fromMs: NOV_2026,
        toMs: NOV_2026 + 2 * HOUR,
        periods: [
          { startMs: NOV_2026, sumPercent: 30 * 40, samples: 30 },
          { startMs: NOV_2026 + HOUR, sumPercent: 60 * 10, samples: 60 },
        ],
      },
      {
        instanceId: 'i-2',
        fromMs: NOV_2026,
        toMs: NOV_2026 + HOUR,
        periods: [{ startMs: NOV_2026, sumPercent: 15 * 100, samples: 15 }],
      },
      { instanceId: 'i-3', fromMs: NOV_2026 + 5 * HOUR, toMs: NOV_2026 + 6 * HOUR, periods: [] },
    ],
    // A training task requested at 01:00 that waited two minutes and ran two hours; one of October's.
    tasks: [
      {
        workload: 'training',
        requestedAtMs: NOV_2026 + HOUR,
        startedAtMs: NOV_2026 + HOUR + 120_000,
        runs: [{ fromMs: NOV_2026 + HOUR + 120_000, toMs: NOV_2026 + 3 * HOUR + 120_000 }],
      },
      {
        workload: 'batch',
        requestedAtMs: NOV_2026 - 2 * HOUR,
        startedAtMs: NOV_2026 - HOUR,
        runs: [{ fromMs: NOV_2026 - HOUR, toMs: NOV_2026 - 1 }],
      },
    ],
    // A training lease requested at 01:00 that waited 10 minutes on the tenant's quota; one of October's
    // whose wait on the account's quota ran 30 minutes into November before it timed out.
    waits: [
      {
        workload: 'training',
        requestedAtMs: NOV_2026 + HOUR,
        gpus: 1,
        waitMs: 600_000,
        timedOut: false,
        spells: [
          { reason: 'quota', fromMs: NOV_2026 + HOUR, toMs: NOV_2026 + HOUR + 600_000, timedOut: false },
        ],
        region: 'us-east-1',
        family: 'G',
      },
      {
        workload: 'batch',
        requestedAtMs: NOV_2026 - HOUR,
        gpus: 4,
        waitMs: 5_400_000,
        timedOut: true,
        spells: [
          { reason: 'account-quota', fromMs: NOV_2026 - HOUR, toMs: NOV_2026 + HOUR / 2, timedOut: true },
        ],
        region: 'us-west-2',
        family: 'P',
      },
    ],
  };
  const audit = buildMonthlyAudit(input);

  it('sums cost and share by mode and prices spot seconds at each type’s on-demand rate', () => {
    expect(audit.complete).toBe(false);
    expect(audit.costMicroUsd).toBe(2_724_000);
    expect(audit.byMode.find((m) => m.mode === 'spot')).toEqual({
      mode: 'spot',
      seconds: 10_800,
      costMicroUsd: 1_718_000,
      share: 1_718_000 / 2_724_000,
    });
    // 2 h of g5.xlarge at $1.006 + 1 h of p3.2xlarge at $3.06, less the $1.718 spot cost.
    expect(audit.spotSavings).toMatchObject({ onDemandMicroUsd: 5_072_000, savingMicroUsd: 3_354_000 });
  });

  it('compares spot compute with on-demand compute: the spot instances’ volumes and transfer are not a saving', () => {
    // Nov 2's spot rollup also holds its volume (44,444 µ$) and a transfer (20,000 µ$), its on-demand
    // rollup a volume (22,222 µ$): the cost by mode counts them, the saving does not (they cost the
    // same on-demand).
    const extras: Record<string, number> = { spot: 44_444 + 20_000, 'on-demand': 22_222 };
    const withExtras = buildMonthlyAudit({
      ...input,
      rollups: input.rollups.map((r) =>
        r.day === '2026-11-02' ? { ...r, microUsd: r.microUsd + (extras[r.mode] ?? 0) } : r,
      ),
      dimensions: [
        { day: '2026-11-02', dimension: 'storage', mode: 'spot', microUsd: 44_444 },
        { day: '2026-11-02', dimension: 'transfer', mode: 'spot', microUsd: 20_000 },
        { day: '2026-11-02', dimension: 'storage', mode: 'on-demand', microUsd: 22_222 },
      ],
    });
    expect(withExtras.byMode.find((m) => m.mode === 'spot')?.costMicroUsd).toBe(1_718_000 + 64_444);
    expect(withExtras.spotSavings).toMatchObject({
      spotMicroUsd: 1_718_000,
      onDemandMicroUsd: 5_072_000,
      savingMicroUsd: 3_354_000,
    });
    // The rollups' 2,724,000 + 86,666 less the 86,666 of storage and transfer is compute.
    expect(withExtras.byDimension).toEqual({ compute: 2_724_000, storage: 66_666, transfer: 20_000 });
  });

  it('lists every day to date, and concurrency hour by hour to now', () => {
    expect(audit.daily).toHaveLength(30);
    expect(audit.daily[1]).toEqual({
      day: '2026-11-02',
      costMicroUsd: { 'on-demand': 1_006_000, reserved: 0, spot: 800_000 },
    });
    expect(audit.concurrency.gpus).toHaveLength(29 * 24 + 12);
    expect(audit.concurrency.gpus.slice(0, 4)).toEqual([0, 2, 2, 0]);
  });

  it('weighs utilization by GPU-minute and leaves hours without telemetry null, not 0%', () => {
    // 00:00: (1200 + 1500) / 45 = 60%; 01:00: 10%; the whole month: 3300 / 105 = 31.4%.
    expect(audit.utilization.byHourOfDay.slice(0, 3)).toEqual([60, 10, null]);
    expect(audit.utilization.byHourOfDay.filter((v) => v !== null)).toHaveLength(2);
    expect(audit.utilization.month).toEqual({
      percent: 31.4,
      telemetry: 'partial',
      measuredGpuHours: 1.75,
      gpusWithoutTelemetry: 1,
    });
  });

  it("adds up the fleet's idle reserved time and counts the month's interruptions by workload", () => {
    expect(audit.reserved).toEqual({
      source: 'reservations',
      scope: 'fleet',
      commitments: 2,
      gpus: 3,
      idleGpuHours: 2.5,
      idleMicroUsd: 2_878_800,
    });
    expect(audit.interruptions).toEqual({
      source: 'interruption-notices',
      count: 2,
      byWorkload: { batch: 1, inference: 1 },
    });
    expect(audit.findings).toHaveLength(2);
    expect(auditSummaryMessage(audit).body).toContain('sat idle 2.5 GPU-hours, $2.88 paid for nothing');
  });

  it("counts the month's task time and wait to start by workload, and the report shows them", () => {
    const training = { runSeconds: 7200, waitSeconds: { tasks: 1, p50: 120, p95: 120 } };
    expect(audit.tasks.month).toEqual({ ...training, byWorkload: { training } });
    expect(audit.tasks.daily.map((d) => [d.day, d.runSeconds])).toEqual(
      audit.daily.map((d) => [d.day, d.day === '2026-11-01' ? 7200 : 0]),
    );
    const html = renderAuditReport(audit);
    expect(html).toContain(
      '<tr data-workload="training"><td>training</td><td>2.0</td><td>1</td><td>120 s</td>',
    );
    expect(html).not.toContain('data-workload="batch"');
  });

  it("counts the month's waits for admission: the wait of its own leases, and the part of October's in it", () => {
    const training = { leases: 1, timedOut: 0, unfinished: 0, p50: 600, p95: 600 };
    expect(audit.queue.month.waitSeconds).toEqual({ ...training, byWorkload: { training } });
    expect(audit.queue.month.overQuota).toEqual({ leaseSeconds: 600, wallSeconds: 600 });
    // 4 GPUs × the 30 minutes of November.
    expect(audit.queue.month.accountQuota).toEqual({
      gpuHours: 2,
      peakGpus: 4,
      timedOut: { leases: 1, gpuHours: 2 },
      byPool: [
        { region: 'us-west-2', family: 'P', gpuHours: 2, peakGpus: 4, timedOut: { leases: 1, gpuHours: 2 } },
      ],
    });
    expect(audit.queue.daily.map((d) => [d.day, d.overQuota.leaseSeconds])).toEqual(
      audit.daily.map((d) => [d.day, d.day === '2026-11-01' ? 600 : 0]),
    );
    const html = renderAuditReport(audit);
    expect(html).toContain(
      '<tr data-queue-workload="training"><td>training</td><td>1</td><td>0</td><td>600 s</td><td>600 s</td></tr>',
    );
    expect(html).toContain(
      '<tr data-account-quota="us-west-2 P"><td>us-west-2</td><td>P</td><td>2</td><td>4</td><td>2</td></tr>',
    );
  });

  it('says so when no GPU sent telemetry, instead of drawing zeros', () => {
    const silent = buildMonthlyAudit({ ...input, gpus: [], idleReserved: [], instances: [], tasks: [] });
    expect(silent.utilization.month).toEqual({
      percent: null,
      telemetry: 'none',
      measuredGpuHours: 0,
      gpusWithoutTelemetry: 0,
    });
    expect(silent.findings).toEqual([]);
    const html = renderAuditReport(silent);
    expect(html).toContain('data-label="no-telemetry"');
    // Every hour is drawn as missing (hatched), none as a measured bar.
    expect(html).not.toMatch(/data-percent=/);
    expect(html.match(/data-no-telemetry=/g)).toHaveLength(24);
    expect(html).toContain('<p data-tasks="none">');
  });

  it('summarises itself for the alerts topic with a stable auditId', () => {
    const message = auditSummaryMessage(audit);
    expect(message.subject).toBe('gpurent audit 2026-11: $2.72');
    expect(message.attributes).toMatchObject({ tenant: 'acme', month: '2026-11', kind: 'audit' });
    expect(message.attributes.auditId).toBe(
      auditSummaryMessage({ ...audit, costMicroUsd: 1 }).attributes.auditId,
    );
    expect(message.attributes.auditId).not.toBe(
      auditSummaryMessage({ ...audit, month: '2026-10' }).attributes.auditId,
    );
  });
});

describe('SPOT_DATA_DIR', () => {
  it('must hold the V100 spot traces', () => {
    expect(() => readConfig(spotDataConfig, { SPOT_DATA_DIR: '/nonexistent' })).toThrow(ConfigError);
    expect(() => readConfig(spotDataConfig, { SPOT_DATA_DIR: '/nonexistent' })).toThrow(
      /SPOT_DATA_DIR: must be a directory holding spot-availability-aws-v100\//,
    );
  });
});
