import { describe, expect, it } from 'vitest';
import type { LeaseInstance, LeaseView } from '../../../shared/domain/lease';
import { summarizeUsage } from '../../../shared/domain/usage';
import { USAGE_EXPORT_HEADER, usageExportCsv } from '../../../shared/domain/usage-export';

const lines = [
  {
    day: '2026-11-02',
    leaseId: 'a',
    instanceType: 'g5.xlarge',
    mode: 'on-demand',
    seconds: 60,
    microUsd: 16_767,
  },
  {
    day: '2026-11-01',
    leaseId: 'b',
    instanceType: 'g5.xlarge',
    mode: 'spot',
    seconds: 120,
    microUsd: 10_000,
  },
  {
    day: '2026-11-02',
    leaseId: 'a',
    instanceType: 'g6.xlarge',
    mode: 'on-demand',
    seconds: 30,
    microUsd: 7_000,
  },
] as const;

describe('usage summary', () => {
  it('groups by mode, largest cost first, with exact totals', () => {
    expect(summarizeUsage(lines, 'mode')).toEqual({
      seconds: 210,
      microUsd: 33_767,
      groups: [
        { key: 'on-demand', seconds: 90, microUsd: 23_767 },
        { key: 'spot', seconds: 120, microUsd: 10_000 },
      ],
    });
  });

  it('groups by lease and by instance type', () => {
    expect(summarizeUsage(lines, 'lease').groups.map((g) => [g.key, g.microUsd])).toEqual([
      ['a', 23_767],
      ['b', 10_000],
    ]);
    expect(summarizeUsage(lines, 'instanceType').groups.map((g) => g.key)).toEqual([
      'g5.xlarge',
      'g6.xlarge',
    ]);
  });

  it('groups by project, leases without a label under (none)', () => {
    const labelled = [{ ...lines[0], project: 'vision' }, lines[1], { ...lines[2], project: 'vision' }];
    expect(summarizeUsage(labelled, 'project').groups.map((g) => [g.key, g.microUsd])).toEqual([
      ['vision', 23_767],
      ['(none)', 10_000],
    ]);
  });

  it('groups by day in calendar order', () => {
    expect(summarizeUsage(lines, 'day').groups.map((g) => [g.key, g.microUsd])).toEqual([
      ['2026-11-01', 10_000],
      ['2026-11-02', 23_767],
    ]);
  });

  it('is empty for no charges', () => {
    expect(summarizeUsage([], 'mode')).toEqual({ seconds: 0, microUsd: 0, groups: [] });
  });
});

function lease(id: string, instances: Partial<LeaseInstance>[], project?: string): LeaseView {
  return {
    project,
    tenantId: 't',
    leaseId: id,
    workload: 'batch',
    gpus: instances.length,
    instanceType: 'g5.xlarge',
    status: 'RUNNING',
    createdAtMs: 0,
    updatedAtMs: 0,
    instances: instances.map((i) => ({ mode: 'spot', ...i }) as LeaseInstance),
  };
}

describe('usage export', () => {
  const day = Date.parse('2026-11-02T00:00:00Z');
  it('writes one row per lease that ran in the range, open end while running', () => {
    const csv = usageExportCsv(
      [
        lease('ran', [
          { launchedAtMs: day, endedAtMs: day + 3_600_000 },
          { launchedAtMs: day + 1000, endedAtMs: day + 7_200_000 },
        ]),
        lease('running', [{ launchedAtMs: day + 5000 }], 'vision'),
        lease('never-launched', []),
        lease('before', [{ launchedAtMs: day - 10_000_000, endedAtMs: day - 9_000_000 }]),
      ],
      day - 1000,
      day + 86_400_000,
    );
    expect(csv.trim().split('\n')).toEqual([
      USAGE_EXPORT_HEADER,
      'ran,batch,spot,g5.xlarge,2,2026-11-02T00:00:00.000Z,2026-11-02T02:00:00.000Z,',
      'running,batch,spot,g5.xlarge,1,2026-11-02T00:00:05.000Z,,vision',
    ]);
  });
});
