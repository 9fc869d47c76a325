import { beforeEach, describe, expect, it } from 'vitest';
import type { SpotPoolSignal } from '../../../shared/domain/deadlines/policy-input';
import type { DeadlineJobRecord } from '../../../shared/ports/deadline-jobs';
import { DeadlineJobNotFoundError, decideDeadlineJob } from '../../../shared/usecases/deadline-decision';
import { FakeDeadlineJobs, FakeDeadlineMarketSignals } from '../../support/fakes/deadline-jobs';
import { FakeEventPublisher } from '../../support/fakes/messaging';

const HOUR = 3_600_000;
const START = Date.parse('2026-12-01T09:00:00Z');
const LEASE = 'lease_01jf0000000000000000000000';
const TENANT = 'tenant-a';

const pool = (zone: string, available: boolean): SpotPoolSignal => ({
  zone,
  region: zone.slice(0, -1),
  priceMicroUsdPerHour: 1_000_000,
  available,
  recentInterruptions: 0,
  recentAvailableMs: 12 * HOUR,
  recentWindowMs: 12 * HOUR,
});

const job = (deadlineAfterMs: number, extra: Partial<DeadlineJobRecord> = {}): DeadlineJobRecord => ({
  tenantId: TENANT,
  leaseId: LEASE,
  job: {
    submittedAtMs: START,
    deadlineMs: START + deadlineAfterMs,
    workMs: 10 * HOUR,
    restartMs: 5 * 60_000,
    checkpointGb: 0,
    onDemandCostMicroUsd: 31_000_000,
  },
  placement: { kind: 'spot', zone: 'us-east-1a', region: 'us-east-1' },
  checkpointRegion: 'us-east-1',
  runs: [{ startedAtMs: START, restartMs: 5 * 60_000 }],
  reports: [],
  spentMicroUsd: 0,
  market: { instanceType: 'p3.2xlarge', regions: ['us-east-1'], machines: 1, history: [] },
  ...extra,
});

describe('deciding for a job with a deadline', () => {
  let jobs: FakeDeadlineJobs;
  let signals: FakeDeadlineMarketSignals;
  let events: FakeEventPublisher;
  const deps = () => ({
    deadlineJobs: jobs,
    marketSignals: signals,
    events,
    transferCosts: { transferMicroUsdPerGb: {}, defaultTransferMicroUsdPerGb: 20_000 },
    decisionIntervalMs: 60_000,
  });

  beforeEach(() => {
    jobs = new FakeDeadlineJobs();
    signals = new FakeDeadlineMarketSignals();
    signals.offers = [
      { region: 'us-east-1', priceMicroUsdPerHour: 3_060_000 },
      { region: 'us-west-2', priceMicroUsdPerHour: 3_060_000 },
    ];
    events = new FakeEventPublisher();
  });

  it('with a tight deadline and its spot pools gone, switches to on-demand, stores why and sends JobPolicyDecision', async () => {
    // 10 h of work, 8 h 50 min saved at 9 h 50 min; the deadline at 11 h: no slack for waiting.
    jobs.put(
      job(11 * HOUR, {
        placement: { kind: 'waiting' },
        runs: [{ startedAtMs: START, restartMs: 0, endedAtMs: START + 9 * HOUR }],
        reports: [{ atMs: START + 8 * HOUR + 55 * 60_000, doneMs: 8 * HOUR + 50 * 60_000 }],
      }),
    );
    signals.pools = [pool('us-east-1a', false), pool('us-east-1b', false)];
    const decision = await decideDeadlineJob(deps(), {
      tenantId: TENANT,
      leaseId: LEASE,
      trigger: 'interruption',
      nowMs: START + 9 * HOUR + 50 * 60_000,
    });
    expect(decision.action).toEqual({ kind: 'on-demand', region: 'us-east-1' });
    expect(decision.doneMs).toBe(8 * HOUR + 50 * 60_000);
    expect(jobs.history(TENANT, LEASE)).toEqual([decision]);
    const [sent] = events.ofType('JobPolicyDecision');
    expect(sent?.detail).toMatchObject({
      leaseId: LEASE,
      trigger: 'interruption',
      action: 'on-demand',
      region: 'us-east-1',
      reason: decision.reason,
    });
    expect(sent?.detail.zone).toBeUndefined();
  });

  it('with slack, stays on spot through an interruption: restarts in the pool that still has capacity', async () => {
    jobs.put(job(20 * HOUR, { placement: { kind: 'waiting' } }));
    signals.pools = [pool('us-east-1a', false), pool('us-east-1b', true)];
    const decision = await decideDeadlineJob(deps(), {
      tenantId: TENANT,
      leaseId: LEASE,
      trigger: 'interruption',
      nowMs: START + HOUR,
    });
    expect(decision.action).toEqual({ kind: 'spot', zone: 'us-east-1b', region: 'us-east-1' });
    expect(decision.slackMs).toBeGreaterThan(8 * HOUR);
    expect(events.ofType('JobPolicyDecision').map((e) => [e.detail.action, e.detail.zone])).toEqual([
      ['spot', 'us-east-1b'],
    ]);
  });

  it('reads only the pools and offers of the regions the lease allows', async () => {
    jobs.put(
      job(20 * HOUR, {
        placement: { kind: 'waiting' },
        market: { instanceType: 'p3.2xlarge', regions: ['us-west-2'], machines: 1, history: [] },
      }),
    );
    signals.pools = [
      pool('us-east-1a', true),
      { ...pool('us-west-2b', true), priceMicroUsdPerHour: 2_000_000 },
    ];
    const decision = await decideDeadlineJob(deps(), {
      tenantId: TENANT,
      leaseId: LEASE,
      trigger: 'launch',
      nowMs: START,
    });
    expect(decision.action).toEqual({ kind: 'spot', zone: 'us-west-2b', region: 'us-west-2' });
  });

  it('refuses a lease without a job with a deadline, writing and sending nothing', async () => {
    await expect(
      decideDeadlineJob(deps(), { tenantId: TENANT, leaseId: LEASE, trigger: 'schedule', nowMs: START }),
    ).rejects.toBeInstanceOf(DeadlineJobNotFoundError);
    expect(events.published).toEqual([]);
    expect(jobs.decisions.size).toBe(0);
  });
});
