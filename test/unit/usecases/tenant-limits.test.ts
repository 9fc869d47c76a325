import { describe, expect, it, vi } from 'vitest';
import { DEFAULT_TENANT_LIMITS, type TenantLimits } from '../../../shared/domain/tenant-limits';
import { RateLimitedError } from '../../../shared/limit-errors';
import type { RequestCounter, TenantLimitsRepository } from '../../../shared/ports/tenant-limits';
import { admitRequest, limitsCache, tenantLimits } from '../../../shared/usecases/tenant-limits';

/** The DynamoDB counter's rule in memory: one count per tenant and second, refused at the limit. */
class FakeRequestCounter implements RequestCounter {
  readonly counts = new Map<string, number>();
  async take(tenantId: string, second: number, limit: number): Promise<boolean> {
    const key = `${tenantId}#${second}`;
    const count = this.counts.get(key) ?? 0;
    if (count >= limit) return false;
    this.counts.set(key, count + 1);
    return true;
  }
}

class FakeLimits implements TenantLimitsRepository {
  readonly items = new Map<string, TenantLimits>();
  reads = 0;
  async get(tenantId: string) {
    this.reads += 1;
    return this.items.get(tenantId);
  }
  async put(tenantId: string, limits: TenantLimits) {
    this.items.set(tenantId, limits);
  }
}

describe('the per-tenant rate limit', () => {
  it("admits a tenant's requestsPerSecond in a second, refuses the next with 429 and Retry-After, and admits again the next second", async () => {
    let nowMs = 1_000_000;
    const deps = { requests: new FakeRequestCounter(), now: () => nowMs };
    for (let i = 0; i < 3; i += 1) await admitRequest(deps, 'noisy', { requestsPerSecond: 3 });
    const refused = admitRequest(deps, 'noisy', { requestsPerSecond: 3 });
    await expect(refused).rejects.toBeInstanceOf(RateLimitedError);
    await expect(refused).rejects.toMatchObject({ status: 429, code: 'RATE_LIMITED', retryAfterSeconds: 1 });
    // Another tenant's budget is its own.
    await expect(admitRequest(deps, 'quiet', { requestsPerSecond: 3 })).resolves.toBeUndefined();
    nowMs += 1000;
    await expect(admitRequest(deps, 'noisy', { requestsPerSecond: 3 })).resolves.toBeUndefined();
  });

  it('refuses the rest of a full second without a write once the instance saw it full', async () => {
    let nowMs = 2_000_000;
    const counter = new FakeRequestCounter();
    const take = vi.spyOn(counter, 'take');
    const deps = { requests: counter, now: () => nowMs, full: new Map<string, number>() };
    for (let i = 0; i < 2; i += 1) await admitRequest(deps, 'flood', { requestsPerSecond: 2 });
    for (let i = 0; i < 50; i += 1) {
      await expect(admitRequest(deps, 'flood', { requestsPerSecond: 2 })).rejects.toBeInstanceOf(
        RateLimitedError,
      );
    }
    // Two admitted, one refused by the counter; the other 49 never reached it.
    expect(take).toHaveBeenCalledTimes(3);
    await expect(admitRequest(deps, 'quiet', { requestsPerSecond: 2 })).resolves.toBeUndefined();
    nowMs += 1000;
    await expect(admitRequest(deps, 'flood', { requestsPerSecond: 2 })).resolves.toBeUndefined();
  });
});

describe("a tenant's limits", () => {
  it('are the defaults until an admin sets them', async () => {
    const limits = new FakeLimits();
    expect(await tenantLimits({ limits }, 't')).toEqual({
      tenantId: 't',
      limits: DEFAULT_TENANT_LIMITS,
      isDefault: true,
    });
    await limits.put('t', { ...DEFAULT_TENANT_LIMITS, requestsPerSecond: 5, maxScalingGroups: 1 });
    expect(await tenantLimits({ limits }, 't')).toMatchObject({
      isDefault: false,
      limits: { requestsPerSecond: 5 },
    });
  });

  it('are read once a minute per API instance, and at once after forget', async () => {
    let nowMs = 0;
    const limits = new FakeLimits();
    const cache = limitsCache({ limits, now: () => nowMs });
    await cache.get('t');
    await cache.get('t');
    expect(limits.reads).toBe(1);
    await limits.put('t', { ...DEFAULT_TENANT_LIMITS, requestsPerSecond: 5, maxScalingGroups: 1 });
    cache.forget('t');
    expect((await cache.get('t')).requestsPerSecond).toBe(5);
    nowMs += 60_000;
    await cache.get('t');
    expect(limits.reads).toBe(3);
  });
});
