import { describe, expect, it } from 'vitest';
import { dailyQueueFigures, queueFigures, waitsOf } from '../../../shared/domain/admission/queue-figures';
import type { LeaseStatus, LeaseView, QueueMark, Workload } from '../../../shared/domain/lease';

const D = Date.parse('2026-11-10T00:00:00Z');
const S = 1000;
const MIN = 60 * S;
const H = 60 * MIN;

function lease(
  id: string,
  fields: {
    status?: LeaseStatus;
    workload?: Workload;
    gpus?: number;
    instanceType?: string;
    createdAtMs?: number;
    queuedAtMs?: number;
    maxWaitMinutes?: number;
    queueRegion?: string;
    regions?: string[];
    releaseRequestedAtMs?: number;
    marks?: QueueMark[];
  } = {},
): LeaseView {
  return {
    tenantId: 't',
    leaseId: id,
    workload: fields.workload ?? 'training',
    gpus: fields.gpus ?? 1,
    instanceType: fields.instanceType ?? 'g5.xlarge',
    status: fields.status ?? 'RUNNING',
    createdAtMs: fields.createdAtMs ?? D,
    updatedAtMs: fields.createdAtMs ?? D,
    queuedAtMs: fields.queuedAtMs,
    maxWaitMinutes: fields.maxWaitMinutes,
    queueRegion: fields.queueRegion,
    regions: fields.regions,
    releaseRequestedAtMs: fields.releaseRequestedAtMs,
    queueHistory: fields.marks,
    instances: [],
  };
}

const mark = (state: QueueMark['state'], atMs: number): QueueMark => ({ state, atMs });

describe('queue wait (admitted at minus queued at)', () => {
  // A ran at once; B waited 60 s on quota; C 120 s on capacity; E timed out after its 5 minutes;
  // F still waits; G (inference) failed before admission ever queued it; P is PENDING, not yet decided.
  const NOW = D + 400 * S;
  const leases = [
    lease('A'),
    lease('B', { queuedAtMs: D + 1 * S, marks: [mark('quota', D + 1.5 * S), mark('admitted', D + 61 * S)] }),
    lease('C', {
      queuedAtMs: D + 2 * S,
      marks: [mark('capacity', D + 2 * S), mark('admitted', D + 122 * S)],
    }),
    lease('E', {
      status: 'FAILED',
      queuedAtMs: D + 3 * S,
      maxWaitMinutes: 5,
      // The pass that noticed ran a minute after the deadline: the wait is still its maxWait.
      marks: [mark('quota', D + 3 * S), mark('timed-out', D + 363 * S)],
    }),
    lease('F', { status: 'QUEUED', marks: [mark('quota', D + 4 * S)] }),
    lease('G', { status: 'FAILED', workload: 'inference' }),
    lease('P', { status: 'PENDING' }),
  ];

  it('takes p50 and p95 over the known waits, counts time-outs at their maxWait, and leaves the unfinished out', () => {
    const figures = queueFigures(waitsOf(leases, NOW), D, D + 86_400_000);
    // Training waits: 0, 60, 120, 300 (nearest rank: p50 the 2nd, p95 the 4th).
    expect(figures.waitSeconds.byWorkload.training).toEqual({
      leases: 4,
      timedOut: 1,
      unfinished: 1,
      p50: 60,
      p95: 300,
    });
    expect(figures.waitSeconds.byWorkload.inference).toEqual({
      leases: 1,
      timedOut: 0,
      unfinished: 0,
      p50: 0,
      p95: 0,
    });
    // All five known: 0, 0, 60, 120, 300.
    expect(figures.waitSeconds).toMatchObject({ leases: 5, timedOut: 1, unfinished: 1, p50: 60, p95: 300 });
  });

  it('sums waits on quota per lease and measures the wall-clock time any lease waited on it', () => {
    const { overQuota } = queueFigures(waitsOf(leases, NOW), D, D + 86_400_000);
    // B [1 s, 61 s], E [3 s, 303 s] (its deadline), F [4 s, now = 400 s]; C waited on capacity.
    expect(overQuota.leaseSeconds).toBe(60 + 300 + 396);
    // They overlap: the union is [1 s, 400 s].
    expect(overQuota.wallSeconds).toBe(399);
  });

  it('reads marks in time order and one reason repeated as one spell', () => {
    const [wait] = waitsOf(
      [
        lease('R', {
          queuedAtMs: D,
          marks: [mark('admitted', D + 90 * S), mark('quota', D + 30 * S), mark('quota', D + 1 * S)],
        }),
      ],
      D + H,
    );
    expect(wait?.waitMs).toBe(90 * S);
    expect(wait?.spells).toEqual([{ reason: 'quota', fromMs: D, toMs: D + 90 * S, timedOut: false }]);
  });

  it('ends the wait of a lease released while it waited at its release, with no wait to count', () => {
    const [wait] = waitsOf(
      [lease('X', { status: 'RELEASED', releaseRequestedAtMs: D + 50 * S, marks: [mark('quota', D)] })],
      D + H,
    );
    expect(wait?.waitMs).toBeUndefined();
    expect(wait?.spells).toEqual([{ reason: 'quota', fromMs: D, toMs: D + 50 * S, timedOut: false }]);
  });
});

describe('GPU-hours refused for the account quota', () => {
  const leases = [
    // 4 GPUs waited 2 h in us-east-1 (G).
    lease('H', {
      gpus: 4,
      queueRegion: 'us-east-1',
      queuedAtMs: D,
      marks: [mark('account-quota', D), mark('admitted', D + 2 * H)],
    }),
    // 2 P GPUs in us-west-2: capacity first, account quota from 1.5 h until the time-out at 2 h.
    lease('I', {
      status: 'FAILED',
      gpus: 2,
      instanceType: 'p4d.24xlarge',
      regions: ['us-west-2'],
      queuedAtMs: D + 1 * H,
      maxWaitMinutes: 60,
      marks: [
        mark('capacity', D + 1 * H),
        mark('account-quota', D + 1.5 * H),
        mark('timed-out', D + 2.5 * H),
      ],
    }),
    // Admitted, refused by EC2 for the account quota and admitted again: two spells, one wait.
    lease('J', {
      queueRegion: 'us-east-1',
      queuedAtMs: D + 1 * H,
      marks: [
        mark('account-quota', D + 1 * H),
        mark('admitted', D + 1.5 * H),
        mark('account-quota', D + 3 * H),
        mark('admitted', D + 4 * H),
      ],
    }),
  ];

  it('counts GPUs × hours waited on it, its peak and what timed out, per region and family', () => {
    const waits = waitsOf(leases, D + 5 * H);
    expect(waits.map((w) => w.waitMs)).toEqual([2 * H, 60 * MIN, 3 * H]);
    const { accountQuota } = queueFigures(waits, D, D + 86_400_000);
    // H 4 × 2 h + I 2 × 0.5 h + J 1 × (0.5 h + 1 h); at 1.5-2 h H and I wait (J's first spell ended at 1.5 h).
    expect(accountQuota).toEqual({
      gpuHours: 10.5,
      peakGpus: 6,
      timedOut: { leases: 1, gpuHours: 1 },
      byPool: [
        {
          region: 'us-east-1',
          family: 'G',
          gpuHours: 9.5,
          peakGpus: 5,
          timedOut: { leases: 0, gpuHours: 0 },
        },
        { region: 'us-west-2', family: 'P', gpuHours: 1, peakGpus: 2, timedOut: { leases: 1, gpuHours: 1 } },
      ],
    });
  });
});

describe('daily queue figures', () => {
  it('splits a wait across midnight between the days and counts the wait on the day it was requested', () => {
    const waits = waitsOf(
      [
        lease('M', {
          createdAtMs: D + 23 * H,
          queuedAtMs: D + 23 * H,
          maxWaitMinutes: 180,
          marks: [mark('quota', D + 23 * H), mark('admitted', D + 25 * H)],
        }),
      ],
      D + 48 * H,
    );
    const days = dailyQueueFigures(waits, D, D + 48 * H, D + 48 * H);
    expect([...days.keys()]).toEqual(['2026-11-10', '2026-11-11']);
    expect(days.get('2026-11-10')?.overQuota).toEqual({ leaseSeconds: 3600, wallSeconds: 3600 });
    expect(days.get('2026-11-11')?.overQuota).toEqual({ leaseSeconds: 3600, wallSeconds: 3600 });
    expect(days.get('2026-11-10')?.waitSeconds).toMatchObject({ leases: 1, p50: 7200 });
    expect(days.get('2026-11-11')?.waitSeconds).toMatchObject({ leases: 0, p50: null });
  });
});
