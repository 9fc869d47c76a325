import { describe, expect, it } from 'vitest';
import { priceCatalog } from '../../../shared/catalog';
import { IDLE_SHARE_FINDING, type IdleRollup, idleCostOf } from '../../../shared/domain/audit/idle-cost';
import { buildMonthlyAudit } from '../../../shared/domain/audit/monthly-audit';
import { renderAuditReport } from '../../../shared/domain/audit/report-page';
import { NOV_2026 } from './lease-views';

/** Two days of one tenant: the ledger's three levels, each summing to the same integers. */
function day(day: string, leases: readonly [string, string, number, number][]): IdleRollup[] {
  const total = (pick: (l: (typeof leases)[number]) => number) => leases.reduce((s, l) => s + pick(l), 0);
  const projects = [...new Set(leases.map(([, project]) => project))];
  return [
    { kind: 'tenant' as const, idleGpuSeconds: total((l) => l[2]), idleMicroUsd: total((l) => l[3]) },
    ...projects.map((project) => {
      const own = leases.filter((l) => l[1] === project);
      return {
        kind: 'project' as const,
        project,
        idleGpuSeconds: own.reduce((s, l) => s + l[2], 0),
        idleMicroUsd: own.reduce((s, l) => s + l[3], 0),
      };
    }),
    ...leases.map(([leaseId, project, idleGpuSeconds, idleMicroUsd]) => ({
      kind: 'lease' as const,
      leaseId,
      project,
      idleGpuSeconds,
      idleMicroUsd,
    })),
  ].map((row) => ({ ...row, day }));
}

const rollups = [
  ...day('2026-11-02', [
    ['l-a', 'vision', 7200, 2_012_000],
    ['l-b', 'vision', 3600, 1_006_000],
    ['l-c', '-', 1800, 503_000],
  ]),
  ...day('2026-11-03', [
    ['l-a', 'vision', 3600, 1_006_000],
    ['l-d', 'nlp', 10_800, 3_018_000],
    ['l-e', 'nlp', 600, 167_667],
    ['l-f', 'nlp', 60, 16_767],
    ['l-g', 'vision', 30, 8_383],
  ]),
];

describe('idle cost in the audit, from the waste ledger rollups', () => {
  it('totals the tenant rows, sums projects across days and names the five idlest leases, dearest first', () => {
    const idle = idleCostOf(rollups, 20_000_000);
    expect(idle).toMatchObject({ source: 'idle-ledger', idleGpuHours: 7.69, idleMicroUsd: 7_737_817 });
    expect(idle.share).toBeCloseTo(7_737_817 / 20_000_000, 12);
    expect(idle.byProject).toEqual([
      { project: 'vision', idleGpuHours: 4.01, idleMicroUsd: 4_032_383 },
      { project: 'nlp', idleGpuHours: 3.18, idleMicroUsd: 3_202_434 },
      { project: '-', idleGpuHours: 0.5, idleMicroUsd: 503_000 },
    ]);
    // l-a idles on two days: one lease, both days summed.
    expect(idle.idlestLeases.map((l) => [l.leaseId, l.project, l.idleMicroUsd])).toEqual([
      ['l-a', 'vision', 3_018_000],
      ['l-d', 'nlp', 3_018_000],
      ['l-b', 'vision', 1_006_000],
      ['l-c', '-', 503_000],
      ['l-e', 'nlp', 167_667],
    ]);
  });

  it('finds idle time past the documented share of the bill, and says nothing at or below it', () => {
    const base = {
      tenantId: 'acme',
      month: '2026-11',
      nowMs: NOV_2026 + 10 * 24 * 3_600_000,
      region: 'us-east-1',
      catalog: priceCatalog,
      spans: [],
      recommendation: null,
      idleReserved: [],
      instances: [],
      gpus: [],
      tasks: [],
      waits: [],
      idleRollups: rollups,
    };
    const billOf = (microUsd: number) => [
      { day: '2026-11-02', mode: 'on-demand' as const, instanceType: 'g5.xlarge', seconds: 36_000, microUsd },
    ];
    const atLine = Math.round(7_737_817 / IDLE_SHARE_FINDING);
    const quiet = buildMonthlyAudit({ ...base, rollups: billOf(atLine) });
    expect(quiet.idle.share).toBeLessThanOrEqual(IDLE_SHARE_FINDING);
    expect(quiet.findings).toEqual([]);

    const wasteful = buildMonthlyAudit({ ...base, rollups: billOf(atLine - 1_000) });
    expect(wasteful.findings).toEqual([
      expect.stringMatching(
        /^GPUs sat idle .* for 7\.69 GPU-hours, \$7\.74 or 20% of the month's cost, above the 20% this audit flags; the idlest lease was l-a/,
      ),
    ]);
    const html = renderAuditReport(wasteful);
    expect(html).toContain('<tr data-idle-project="vision"><td>vision</td><td>4.01</td>');
    expect(html).toContain('data-idle-leases="5"');
    expect(html).toContain('<tr data-idle-lease="l-a">');
  });

  it('says no idle time was billed when the ledger has none', () => {
    const idle = idleCostOf([], 1_000_000);
    expect(idle).toEqual({
      source: 'idle-ledger',
      idleGpuHours: 0,
      idleMicroUsd: 0,
      share: 0,
      byProject: [],
      idlestLeases: [],
    });
  });
});
