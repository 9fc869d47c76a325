import * as z from '../../zod';
import { RENTAL_MODES, type RentalMode } from '../lease';
import { isWholeMicroUsd, type MicroUsd, microToUsd, usdToMicro, WHOLE_MICRO_USD_RULE } from '../money';

/** Quotas stay far inside exact integer micro-dollars and any fleet an account can launch. */
export const MAX_QUOTA_GPUS = 100_000;
export const MAX_QUOTA_HOURLY_USD = 10_000_000;
export const MIN_WEIGHT = 0.01;
export const MAX_WEIGHT = 100;
export const DEFAULT_WEIGHT = 1;

export const MIN_PRIORITY = 0;
export const MAX_PRIORITY = 1000;
export const DEFAULT_PRIORITY = 500;
export const MIN_WAIT_MINUTES = 1;
/** One week: a lease that has not started after a week is better asked again. */
export const MAX_WAIT_MINUTES = 10_080;
export const DEFAULT_MAX_WAIT_MINUTES = 60;

const gpuCount = z
  .number('must be a whole number of GPUs')
  .check(
    z.int('must be a whole number of GPUs'),
    z.gte(0, 'must not be negative'),
    z.lte(MAX_QUOTA_GPUS, `must be at most ${MAX_QUOTA_GPUS}`),
  );

/** What an admin sends with `PUT /v1/admin/tenants/{tenantId}/quota` (and reads back). */
export const quotaBodySchema = z.strictObject({
  maxGpus: gpuCount,
  maxHourlyUsd: z
    .number('must be a number of USD per hour such as 120 or 49.5')
    .check(
      z.gte(0, 'must not be negative'),
      z.lte(MAX_QUOTA_HOURLY_USD, `must be at most ${MAX_QUOTA_HOURLY_USD}`),
      z.refine(isWholeMicroUsd, WHOLE_MICRO_USD_RULE),
    ),
  maxGpusByMode: z.optional(
    z.strictObject(
      Object.fromEntries(RENTAL_MODES.map((mode) => [mode, z.optional(gpuCount)])) as Record<
        RentalMode,
        z.ZodMiniOptional<typeof gpuCount>
      >,
    ),
  ),
  weight: z._default(
    z
      .number('must be a number between 0.01 and 100')
      .check(
        z.gte(MIN_WEIGHT, `must be at least ${MIN_WEIGHT}`),
        z.lte(MAX_WEIGHT, `must be at most ${MAX_WEIGHT}`),
      ),
    DEFAULT_WEIGHT,
  ),
});
export type QuotaBody = z.output<typeof quotaBodySchema>;

/**
 * A tenant's quota as admission uses it: concurrent GPUs, the sum of the hourly
 * prices of its running instances (integer micro-dollars), optional GPU caps
 * per rental mode, and its weight in fair share.
 */
export interface Quota {
  readonly maxGpus: number;
  readonly maxHourlyMicroUsd: MicroUsd;
  readonly maxGpusByMode: Readonly<Partial<Record<RentalMode, number>>>;
  readonly weight: number;
}

/**
 * Tenants without a quota of their own: 8 GPUs at a time (one 8-GPU instance)
 * and $100/h, which covers a p5.48xlarge on-demand in any catalog region
 * ($92.47/h at most), weight 1. Small on purpose: an admin raises it for the
 * tenants that need more.
 */
export const DEFAULT_QUOTA: Quota = {
  maxGpus: 8,
  maxHourlyMicroUsd: usdToMicro(100),
  maxGpusByMode: {},
  weight: DEFAULT_WEIGHT,
};

export function quotaFromBody(body: QuotaBody): Quota {
  return {
    maxGpus: body.maxGpus,
    maxHourlyMicroUsd: usdToMicro(body.maxHourlyUsd),
    maxGpusByMode: body.maxGpusByMode ?? {},
    weight: body.weight,
  };
}

export function quotaToBody(quota: Quota): QuotaBody {
  const byMode = Object.keys(quota.maxGpusByMode).length > 0 ? { maxGpusByMode: quota.maxGpusByMode } : {};
  return {
    maxGpus: quota.maxGpus,
    maxHourlyUsd: microToUsd(quota.maxHourlyMicroUsd),
    ...byMode,
    weight: quota.weight,
  };
}

/** The quota that applies to a tenant: its own, else the default. */
export const quotaOf = (quotas: Readonly<Record<string, Quota>>, tenantId: string, fallback: Quota): Quota =>
  quotas[tenantId] ?? fallback;

/** Admission fields a lease request may carry, merged into the lease body by the API. */
export const leaseAdmissionFields = {
  priority: z._default(
    z
      .number('must be a whole number from 0 to 1000')
      .check(
        z.int('must be a whole number from 0 to 1000'),
        z.gte(MIN_PRIORITY, `must be at least ${MIN_PRIORITY}`),
        z.lte(MAX_PRIORITY, `must be at most ${MAX_PRIORITY}`),
      ),
    DEFAULT_PRIORITY,
  ),
  maxWaitMinutes: z._default(
    z
      .number('must be a whole number of minutes')
      .check(
        z.int('must be a whole number of minutes'),
        z.gte(MIN_WAIT_MINUTES, `must be at least ${MIN_WAIT_MINUTES} minute`),
        z.lte(MAX_WAIT_MINUTES, `must be at most ${MAX_WAIT_MINUTES} minutes (one week)`),
      ),
    DEFAULT_MAX_WAIT_MINUTES,
  ),
};

export const leaseAdmissionSchema = z.strictObject(leaseAdmissionFields);
export type LeaseAdmission = z.output<typeof leaseAdmissionSchema>;
