import { ServiceQuotasClient } from '@aws-sdk/client-service-quotas';
import { ServiceQuotasAccountQuotas } from '../adapters/service-quotas';
import { jsonText } from '../config';
import { INSTANCE_FAMILIES } from '../domain/admission/capacity';
import { QUOTA_MARKETS, vcpuQuotaId } from '../domain/admission/fleet-capacity';
import type { AccountQuotas } from '../ports/account-quotas';
import * as z from '../zod';
import { tracer } from './observability';
import { gpuRegions, regionsEnv } from './placement';
import { portFactory } from './port-factory';

const overrideSchema = z
  .array(
    z.strictObject({
      region: z
        .string()
        .check(z.regex(/^[a-z]{2}(-gov)?-[a-z]+-\d$/, 'must be a region name such as us-east-1')),
      family: z.enum(INSTANCE_FAMILIES),
      market: z.enum(QUOTA_MARKETS),
      vcpus: z.number().check(z.int(), z.gte(0)),
    }),
  )
  .check(
    z.refine(
      (quotas) => new Set(quotas.map(vcpuQuotaId)).size === quotas.length,
      'names one region, family and market twice',
    ),
  );

/**
 * The operator's vCPU quotas, which win over Service Quotas where given:
 * `ACCOUNT_VCPU_QUOTAS` is a JSON list of `{region, family: "G"|"P", market:
 * "on-demand"|"spot", vcpus}`, e.g. where Service Quotas is unreachable, or
 * locally, where the emulator has no EC2 quotas. Absent: none.
 */
export const accountQuotaOverrides = () =>
  portFactory({
    env: { ACCOUNT_VCPU_QUOTAS: z._default(z.pipe(jsonText, overrideSchema), []) },
    reaches: [],
    create: (env) => env.ACCOUNT_VCPU_QUOTAS,
  });

/** Service Quotas in every GPU region, one client per region (quotas are regional). */
export const accountQuotas = () =>
  portFactory({
    env: regionsEnv,
    reaches: [{ kind: 'gpuRegions' }, { kind: 'serviceQuotas' }],
    create: (_env, clients): AccountQuotas =>
      new ServiceQuotasAccountQuotas((region) =>
        clients.of(`servicequotas:${region}`, () =>
          tracer.captureAWSv3Client(new ServiceQuotasClient({ region })),
        ),
      ),
  });

/** The GPU regions, home region first. */
export const gpuRegionList = () =>
  portFactory({
    env: regionsEnv,
    reaches: [{ kind: 'gpuRegions' }],
    create: (env) => gpuRegions(env),
  });
