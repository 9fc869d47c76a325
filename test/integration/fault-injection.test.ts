import { beforeAll, describe, expect, it } from 'vitest';
import { runProvisioningScenario, type ScenarioResult } from '../../bench/support/provisioning-scenario';
import { useFreshResources } from '../support/function-env';

let result: ScenarioResult;

// 200 provision requests (10% repeating an Idempotency-Key), 10% of commands
// delivered twice, capacity refused in some pools (and for one type in all),
// 15% of launches throttled, five workers dying between RunInstances and
// recording; then one reconciler run and one admission pass past every wait. Scenario: bench/support/provisioning-scenario.ts.
beforeAll(async () => {
  const env = await useFreshResources();
  result = await runProvisioningScenario(env, { requests: 200, faults: true, seed: 8 });
}, 600_000);

describe('provisioning under injected faults', () => {
  it('injected every kind of fault', () => {
    expect(result.injected.capacity).toBeGreaterThan(0);
    expect(result.injected.throttled).toBeGreaterThan(0);
    expect(result.injected.crashes).toBe(5);
    expect(result.leases).toBeLessThan(result.requests); // repeated keys made no new leases
  });

  it('settles every lease RUNNING, or FAILED with a reason', () => {
    expect(result.unsettled).toBe(0);
    expect(result.running + result.failed).toBe(result.leases);
    expect(result.running).toBeGreaterThan(0);
    expect(result.failed).toBeGreaterThan(0);
  });

  // #19: g4dn has no capacity anywhere: those leases wait QUEUED instead of failing at once, and the
  // admission schedule fired past their maxWaitMinutes fails them, never launched, so never billed.
  it('queues the leases no pool has room for, then fails them at QUEUE_TIMEOUT with nothing launched', () => {
    expect(result.queued).toBeGreaterThan(0);
    expect(result.queueReasons).toEqual(['capacity']);
    expect(result.timedOut).toBe(result.queued);
    expect(result.failed).toBe(result.timedOut);
    expect(result.timedOutWithInstances).toBe(0);
  });

  it('leaves no instance without a live lease after one reconcile', () => {
    expect(result.orphansAfterReconcile).toBe(0);
  });

  it('never gives a lease more GPUs than it asked for, nor a running lease fewer', () => {
    expect(result.overLaunched).toBe(0);
    expect(result.underLaunched).toBe(0);
  });
});
