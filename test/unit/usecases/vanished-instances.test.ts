import { describe, expect, it } from 'vitest';
import { transitionTimeMs } from '../../../shared/adapters/ec2-compute';
import type { LeaseInstance } from '../../../shared/domain/lease';
import type { ComputeInstance } from '../../../shared/ports/compute';
import { VANISHED_GRACE_MS, vanishedAt } from '../../../shared/usecases/vanished-instances';

const T0 = Date.parse('2026-11-30T12:00:00.000Z');
const record = { instanceId: 'i-1', launchedAtMs: T0 } as LeaseInstance;
const found = (state: string, endedAtMs?: number): ComputeInstance => ({
  instanceId: 'i-1',
  region: 'us-east-1',
  instanceType: 'g5.xlarge',
  zone: 'us-east-1a',
  launchedAtMs: T0,
  mode: 'on-demand',
  state,
  endedAtMs,
});

describe('when a billed instance EC2 no longer runs ended', () => {
  it.each([
    ['terminated, at its state transition', found('terminated', T0 + 600_000), T0 + 600_000],
    ['shutting down, at its state transition', found('shutting-down', T0 + 600_000), T0 + 600_000],
    ['terminated without a readable time, when first seen gone', found('terminated'), T0 + 900_000],
    ['a transition stamped after now, no later than now', found('terminated', T0 + 950_000), T0 + 900_000],
    ['a transition before launch, at launch', found('terminated', T0 - 5_000), T0],
    ['unknown to EC2 after the grace, when first seen gone', undefined, T0 + 900_000],
  ])('%s', (_, instance, expected) => {
    expect(vanishedAt(record, instance, T0 + 900_000)).toBe(expected);
  });

  it.each([
    ['still running', found('running'), T0 + 900_000],
    ['stopped (not terminated)', found('stopped'), T0 + 900_000],
    ['unknown to EC2 within the grace (not listed yet)', undefined, T0 + VANISHED_GRACE_MS - 1],
  ])('not at all while %s', (_, instance, nowMs) => {
    expect(vanishedAt(record, instance, nowMs)).toBeUndefined();
  });
});

describe("EC2's state transition reason", () => {
  it.each([
    ['User initiated (2026-11-30 12:10:05 GMT)', Date.parse('2026-11-30T12:10:05Z')],
    ['User initiated (2026-11-30 12:10:05 UTC)', Date.parse('2026-11-30T12:10:05Z')],
    ['Server.SpotInstanceTermination: Spot instance termination', undefined],
    ['', undefined],
    [undefined, undefined],
  ])('%s → %s', (reason, expected) => {
    expect(transitionTimeMs(reason)).toBe(expected);
  });
});
