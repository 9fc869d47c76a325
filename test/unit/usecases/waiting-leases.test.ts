import { describe, expect, it } from 'vitest';
import { WaitingLeasesCapError } from '../../../shared/limit-errors';
import { assertBelowWaitingLeasesCap } from '../../../shared/usecases/waiting-leases';
import { FakeLeaseRepository } from '../../support/fakes/lease-repository';
import { storedLease } from '../../support/leases';

const NOW = 1_800_000_000_000;

async function tenantWith(leases: FakeLeaseRepository, tenantId: string, statuses: readonly string[]) {
  const stored = [];
  for (const [i, status] of statuses.entries()) {
    stored.push(
      await storedLease(leases, {
        tenantId,
        createdAtMs: NOW + i,
        status: status as 'PENDING',
      }),
    );
  }
  return stored;
}

describe('the cap on waiting leases', () => {
  it('refuses the tenant at maxWaitingLeases PENDING or QUEUED leases with 429, naming the cap and how many wait', async () => {
    const leases = new FakeLeaseRepository();
    await tenantWith(leases, 'busy', ['PENDING', 'QUEUED', 'RUNNING', 'RELEASING', 'RELEASED', 'FAILED']);
    const refused = assertBelowWaitingLeasesCap({ leases }, 'busy', { maxWaitingLeases: 2 });
    await expect(refused).rejects.toBeInstanceOf(WaitingLeasesCapError);
    await expect(refused).rejects.toMatchObject({
      status: 429,
      code: 'WAITING_LEASES_CAP_REACHED',
      field: 'maxWaitingLeases',
      cap: 2,
      waiting: 2,
      retryAfterSeconds: 60,
      message: expect.stringContaining('has 2 leases waiting to start (PENDING or QUEUED), its cap of 2'),
    });
    // Started and ended leases never count: one place more and it passes.
    await expect(
      assertBelowWaitingLeasesCap({ leases }, 'busy', { maxWaitingLeases: 3 }),
    ).resolves.toBeUndefined();
    // Another tenant's waiting leases are its own.
    await expect(
      assertBelowWaitingLeasesCap({ leases }, 'quiet', { maxWaitingLeases: 2 }),
    ).resolves.toBeUndefined();
  });

  it('admits again once a waiting lease starts, or is released', async () => {
    const leases = new FakeLeaseRepository();
    const [pending, queued] = await tenantWith(leases, 't', ['PENDING', 'QUEUED']);
    const cap = { maxWaitingLeases: 2 };
    await expect(assertBelowWaitingLeasesCap({ leases }, 't', cap)).rejects.toBeInstanceOf(
      WaitingLeasesCapError,
    );
    expect(await leases.transition('t', pending?.leaseId ?? '', ['PENDING'], 'RUNNING', NOW + 10)).toBe(true);
    await expect(assertBelowWaitingLeasesCap({ leases }, 't', cap)).resolves.toBeUndefined();

    await storedLease(leases, { tenantId: 't', createdAtMs: NOW + 20 });
    await expect(assertBelowWaitingLeasesCap({ leases }, 't', cap)).rejects.toBeInstanceOf(
      WaitingLeasesCapError,
    );
    expect(await leases.transition('t', queued?.leaseId ?? '', ['QUEUED'], 'RELEASING', NOW + 30)).toBe(true);
    await expect(assertBelowWaitingLeasesCap({ leases }, 't', cap)).resolves.toBeUndefined();
  });

  it('asks for a count up to the cap and no further, and a cap of 0 refuses without a read', async () => {
    const leases = new FakeLeaseRepository();
    await tenantWith(
      leases,
      'big',
      Array.from({ length: 30 }, () => 'PENDING'),
    );
    const refused = assertBelowWaitingLeasesCap({ leases }, 'big', { maxWaitingLeases: 5 });
    await expect(refused).rejects.toMatchObject({ cap: 5, waiting: 5 });
    expect(leases.faults.calls.filter((call) => call.method === 'countWaiting')).toEqual([
      { method: 'countWaiting', args: ['big', 5] },
    ]);

    const frozen = new FakeLeaseRepository();
    await expect(
      assertBelowWaitingLeasesCap({ leases: frozen }, 'none', { maxWaitingLeases: 0 }),
    ).rejects.toMatchObject({ code: 'WAITING_LEASES_CAP_REACHED', cap: 0, waiting: 0 });
    expect(frozen.faults.calls).toEqual([]);
  });
});
