import {
  AccessDeniedException,
  GetServiceQuotaCommand,
  IllegalArgumentException,
  NoSuchResourceException,
  ServiceQuotasClient,
  TooManyRequestsException,
} from '@aws-sdk/client-service-quotas';
import { mockClient } from 'aws-sdk-client-mock';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { ServiceQuotasAccountQuotas } from '../../../shared/adapters/service-quotas';
import { AccountQuotaUnavailableError } from '../../../shared/ports/account-quotas';

// moto serves no EC2 quotas (its Service Quotas knows a few other services'
// defaults), so Service Quotas is replaced here by aws-sdk-client-mock: what
// is checked is the request, the regional client, and how errors are classified.
const serviceQuotas = mockClient(ServiceQuotasClient);
afterAll(() => serviceQuotas.restore());

const regionsAsked: string[] = [];
const quotas = new ServiceQuotasAccountQuotas((region) => {
  regionsAsked.push(region);
  return new ServiceQuotasClient({ region, maxAttempts: 1 });
});

const meta = (httpStatusCode: number) => ({ $metadata: { httpStatusCode } });

beforeEach(() => {
  serviceQuotas.reset();
  regionsAsked.length = 0;
});

describe('EC2 vCPU quotas from Service Quotas', () => {
  it.each([
    ['G', 'on-demand', 'L-DB2E81BA'],
    ['P', 'on-demand', 'L-417A185B'],
    ['G', 'spot', 'L-3819A6DF'],
    ['P', 'spot', 'L-7212CCBC'],
  ] as const)('reads the %s %s quota as %s in the region asked', async (family, market, code) => {
    serviceQuotas
      .on(GetServiceQuotaCommand, { ServiceCode: 'ec2', QuotaCode: code })
      .resolves({ Quota: { QuotaCode: code, Value: 96.0 } });
    expect(await quotas.vcpuQuota({ region: 'eu-west-1', family, market })).toBe(96);
    expect(regionsAsked).toEqual(['eu-west-1']);
  });

  it.each([
    [new NoSuchResourceException({ message: 'no such quota', ...meta(400) }), 'not-found'],
    [new AccessDeniedException({ message: 'denied', ...meta(400) }), 'access-denied'],
    [new TooManyRequestsException({ message: 'slow down', ...meta(400) }), 'throttled'],
    [Object.assign(new Error('connect ECONNREFUSED'), { name: 'Error' }), 'unreachable'],
  ])('classifies %s as %s, with the quota it was reading', async (error, reason) => {
    serviceQuotas.on(GetServiceQuotaCommand).rejects(error);
    const read = quotas.vcpuQuota({ region: 'us-east-1', family: 'P', market: 'spot' });
    await expect(read).rejects.toBeInstanceOf(AccountQuotaUnavailableError);
    await expect(read).rejects.toMatchObject({
      reason,
      quotaCode: 'L-7212CCBC',
      quota: { region: 'us-east-1', family: 'P', market: 'spot' },
    });
  });

  it('calls an answer without a value not found', async () => {
    serviceQuotas.on(GetServiceQuotaCommand).resolves({ Quota: { QuotaCode: 'L-DB2E81BA' } });
    await expect(
      quotas.vcpuQuota({ region: 'us-east-1', family: 'G', market: 'on-demand' }),
    ).rejects.toMatchObject({
      reason: 'not-found',
    });
  });

  it('lets a malformed request through as the bug it is', async () => {
    serviceQuotas
      .on(GetServiceQuotaCommand)
      .rejects(new IllegalArgumentException({ message: 'bad', ...meta(400) }));
    await expect(
      quotas.vcpuQuota({ region: 'us-east-1', family: 'G', market: 'on-demand' }),
    ).rejects.toBeInstanceOf(IllegalArgumentException);
  });
});
