import { describe, expect, it } from 'vitest';
import {
  DEFAULT_QUOTA,
  leaseAdmissionSchema,
  quotaBodySchema,
  quotaFromBody,
  quotaOf,
  quotaToBody,
} from '../../../../shared/domain/admission/quota';

const issuesOf = (result: { success: boolean; error?: { issues: { path: PropertyKey[] }[] } }) =>
  result.error?.issues.map((issue) => issue.path.join('.')) ?? [];

describe('quota body', () => {
  it('stores the hourly limit as integer micro-dollars and defaults the weight to 1', () => {
    const body = quotaBodySchema.parse({ maxGpus: 16, maxHourlyUsd: 49.123456, maxGpusByMode: { spot: 4 } });
    expect(body.weight).toBe(1);
    expect(quotaFromBody(body)).toEqual({
      maxGpus: 16,
      maxHourlyMicroUsd: 49_123_456,
      maxGpusByMode: { spot: 4 },
      weight: 1,
    });
    expect(quotaToBody(quotaFromBody(body))).toEqual(body);
  });

  it.each([
    [{ maxGpus: -1, maxHourlyUsd: 10 }, 'maxGpus'],
    [{ maxGpus: 1.5, maxHourlyUsd: 10 }, 'maxGpus'],
    [{ maxGpus: 4, maxHourlyUsd: 10.0000001 }, 'maxHourlyUsd'],
    [{ maxGpus: 4, maxHourlyUsd: -1 }, 'maxHourlyUsd'],
    [{ maxGpus: 4, maxHourlyUsd: 10, weight: 0.001 }, 'weight'],
    [{ maxGpus: 4, maxHourlyUsd: 10, weight: 101 }, 'weight'],
    [{ maxGpus: 4, maxHourlyUsd: 10, maxGpusByMode: { spot: -2 } }, 'maxGpusByMode.spot'],
    [{ maxGpus: 4, maxHourlyUsd: 10, maxGpusByMode: { preemptible: 2 } }, 'maxGpusByMode'],
    [{ maxGpus: 4, maxHourlyUsd: 10, burst: 2 }, ''],
  ])('refuses %j at %s', (body, path) => {
    const result = quotaBodySchema.safeParse(body);
    expect(result.success).toBe(false);
    expect(issuesOf(result)).toContain(path);
  });

  it('accepts the bounds of the weight and zero limits', () => {
    expect(quotaBodySchema.safeParse({ maxGpus: 0, maxHourlyUsd: 0, weight: 0.01 }).success).toBe(true);
    expect(quotaBodySchema.safeParse({ maxGpus: 0, maxHourlyUsd: 0, weight: 100 }).success).toBe(true);
  });

  it('gives tenants without a quota the default one', () => {
    const own = { ...DEFAULT_QUOTA, maxGpus: 64 };
    expect(quotaOf({ acme: own }, 'acme', DEFAULT_QUOTA)).toBe(own);
    expect(quotaOf({ acme: own }, 'globex', DEFAULT_QUOTA)).toBe(DEFAULT_QUOTA);
  });
});

describe('lease admission fields', () => {
  it('defaults priority to 500 and the maximum wait to 60 minutes', () => {
    expect(leaseAdmissionSchema.parse({})).toEqual({ priority: 500, maxWaitMinutes: 60 });
    expect(leaseAdmissionSchema.parse({ priority: 0, maxWaitMinutes: 10_080 })).toEqual({
      priority: 0,
      maxWaitMinutes: 10_080,
    });
  });

  it.each([
    [{ priority: 1001 }, 'priority'],
    [{ priority: -1 }, 'priority'],
    [{ priority: 2.5 }, 'priority'],
    [{ maxWaitMinutes: 0 }, 'maxWaitMinutes'],
    [{ maxWaitMinutes: 10_081 }, 'maxWaitMinutes'],
    [{ maxWaitMinutes: 30.5 }, 'maxWaitMinutes'],
  ])('refuses %j', (fields, path) => {
    expect(issuesOf(leaseAdmissionSchema.safeParse(fields))).toContain(path);
  });
});
