import { describe, expect, it } from 'vitest';
import {
  combineFleetSeries,
  desiredAfterUpdate,
  type GroupMember,
  isLive,
  launchModes,
  memoryUsedPercent,
  type ScalingGroupSpec,
  type ScalingGroupSpecInput,
  sameWaiting,
  scaleInOrder,
  scalingGroupSpecSchema,
  type WaitingMember,
  waitingMembers,
  withWaiting,
} from '../../../shared/domain/scaling';

const MINUTE = 60_000;
const NOW = 1_000 * MINUTE;

const spec = (input: Partial<ScalingGroupSpecInput> = {}): ScalingGroupSpec =>
  scalingGroupSpecSchema.parse({ instanceType: 'g5.xlarge', min: 1, max: 8, ...input });

const issuesOf = (input: Record<string, unknown>) => {
  const result = scalingGroupSpecSchema.safeParse({ instanceType: 'g5.xlarge', min: 1, max: 8, ...input });
  expect(result.success).toBe(false);
  return result.error?.issues.map((issue) => ({ path: issue.path.join('.'), message: issue.message })) ?? [];
};

const member = (leaseId: string, overrides: Partial<GroupMember> = {}): GroupMember => ({
  leaseId,
  status: 'RUNNING',
  mode: 'on-demand',
  createdAtMs: NOW - 60 * MINUTE,
  launchedAtMs: NOW - 60 * MINUTE,
  instanceIds: [`i-${leaseId}`],
  ...overrides,
});

describe('scaling group spec', () => {
  it('fills in inference, no spot, the default rules and a 5-minute warm-up', () => {
    expect(spec()).toMatchObject({
      workload: 'inference',
      onDemandBase: 0,
      spotAboveBase: false,
      instanceWarmupSeconds: 300,
      scaleOut: { cooldownSeconds: 300 },
      scaleIn: { cooldownSeconds: 600 },
    });
  });

  it('starts at desired or min, and keeps the current size within new bounds when desired is omitted', () => {
    expect(desiredAfterUpdate(spec({ desired: 3 }), undefined)).toBe(3);
    expect(desiredAfterUpdate(spec(), undefined)).toBe(1);
    expect(desiredAfterUpdate(spec({ min: 2, max: 4 }), 7)).toBe(4);
    expect(desiredAfterUpdate(spec({ min: 2, max: 4 }), 3)).toBe(3);
    expect(desiredAfterUpdate(spec({ min: 2, max: 4, desired: 2 }), 3)).toBe(2);
  });

  it('refuses min above max and desired outside them, naming each field', () => {
    expect(issuesOf({ min: 5, max: 4, desired: 9 })).toEqual([
      { path: 'min', message: 'must not exceed max (5 > 4)' },
      { path: 'desired', message: 'must be between min and max (5-4, got 9)' },
    ]);
    expect(issuesOf({ desired: 0 })).toEqual([
      { path: 'desired', message: 'must be between min and max (1-8, got 0)' },
    ]);
  });

  it('refuses spot for inference, unknown fields and a missing max', () => {
    expect(issuesOf({ spotAboveBase: true })).toEqual([
      { path: 'spotAboveBase', message: expect.stringContaining('inference never runs on spot') },
    ]);
    expect(issuesOf({ color: 'red' })).toEqual([{ path: '', message: 'Unrecognized key: "color"' }]);
    expect(issuesOf({ max: undefined })[0]).toMatchObject({
      path: 'max',
      message: expect.stringContaining('is required'),
    });
  });
});

describe('fleet series', () => {
  it('averages the GPUs that reported and leaves out the silent ones instead of counting them idle', () => {
    const a = [
      { timestampMs: 0, value: 90 },
      { timestampMs: MINUTE, value: 80 },
    ];
    const b = [{ timestampMs: 0, value: 70 }];

    expect(combineFleetSeries([a, b], 'Average')).toEqual([
      { timestampMs: 0, value: 80 },
      { timestampMs: MINUTE, value: 80 },
    ]);
    expect(combineFleetSeries([a, b], 'Maximum')[0]?.value).toBe(90);
    expect(combineFleetSeries([a, b], 'Minimum')[0]?.value).toBe(70);
    expect(combineFleetSeries([[], []], 'Average')).toEqual([]);
  });

  it('turns used and total memory into a percentage where both are known', () => {
    expect(
      memoryUsedPercent(
        [
          { timestampMs: 0, value: 6_000 },
          { timestampMs: MINUTE, value: 12_000 },
        ],
        [{ timestampMs: 0, value: 24_000 }],
      ),
    ).toEqual([{ timestampMs: 0, value: 25 }]);
  });
});

describe('members', () => {
  it('launches on-demand up to the base, then spot when the group allows it', () => {
    const batch = spec({ workload: 'batch', onDemandBase: 2, spotAboveBase: true });

    expect(launchModes(batch, [member('a')], 3)).toEqual(['on-demand', 'spot', 'spot']);
    expect(launchModes(spec({ onDemandBase: 0 }), [], 2)).toEqual(['on-demand', 'on-demand']);
  });

  it('removes spot above the base first, then the newest, never one still booting', () => {
    const group = spec({ workload: 'batch', onDemandBase: 1, spotAboveBase: true });
    const members = [
      member('old-od', { createdAtMs: NOW - 90 * MINUTE }),
      member('new-od', { createdAtMs: NOW - 30 * MINUTE }),
      member('spot', { mode: 'spot', createdAtMs: NOW - 80 * MINUTE }),
      member('booting', { createdAtMs: NOW - 2 * MINUTE, launchedAtMs: NOW - 2 * MINUTE }),
      member('pending', { status: 'PENDING', createdAtMs: NOW - MINUTE, launchedAtMs: undefined }),
    ];

    expect(scaleInOrder(group, members, 2, NOW).map((m) => m.leaseId)).toEqual(['spot', 'new-od']);
    expect(scaleInOrder(group, members, 9, NOW).map((m) => m.leaseId)).toEqual(['spot', 'new-od', 'old-od']);
  });

  it('removes a member still waiting for admission before any that runs (nothing of it runs yet)', () => {
    const group = spec({ workload: 'batch', spotAboveBase: true });
    const members = [
      member('spot', { mode: 'spot' }),
      member('queued', { status: 'QUEUED', createdAtMs: NOW - 2 * MINUTE, launchedAtMs: undefined }),
      member('od'),
    ];

    expect(scaleInOrder(group, members, 1, NOW).map((m) => m.leaseId)).toEqual(['queued']);
    expect(scaleInOrder(group, members, 2, NOW).map((m) => m.leaseId)).toEqual(['queued', 'spot']);
  });

  it('counts a member waiting for admission as live and names it with its reason and place', () => {
    const queue = {
      reason: 'quota',
      position: 2,
      estimatedStartAtMs: NOW + MINUTE,
      estimateBasis: 'default',
    } as const;
    const members = [
      member('running'),
      member('queued', { status: 'QUEUED', launchedAtMs: undefined, instanceIds: [], queue }),
      member('failed', { status: 'FAILED' }),
    ];

    expect(members.filter(isLive).map((m) => m.leaseId)).toEqual(['running', 'queued']);
    const waiting = waitingMembers(members);
    expect(waiting).toEqual([{ leaseId: 'queued', ...queue }]);
    expect(withWaiting('no rule met', waiting)).toBe(
      'no rule met; 1 GPU waiting in the admission queue: queued (quota, position 2)',
    );
    expect(withWaiting('no rule met', [])).toBe('no rule met');
    expect(sameWaiting(waiting, [{ ...waiting[0], position: 1 } as WaitingMember])).toBe(true);
    expect(sameWaiting(waiting, [])).toBe(false);
    expect(sameWaiting([], waiting)).toBe(false);
  });
});
