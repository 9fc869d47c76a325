import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../../shared/config';
import { accountQuotaOverrides } from '../../../shared/lambda/fleet-capacity';
import { buildPorts } from '../../../shared/lambda/port-factory';

const overrides = (ACCOUNT_VCPU_QUOTAS?: string) =>
  buildPorts(
    { quotas: accountQuotaOverrides() },
    ACCOUNT_VCPU_QUOTAS === undefined ? {} : { ACCOUNT_VCPU_QUOTAS },
  ).quotas;

describe('ACCOUNT_VCPU_QUOTAS, read once at cold start', () => {
  it('is a list of quotas, none when unset', () => {
    expect(overrides()).toEqual([]);
    expect(overrides('[{"region":"eu-west-1","family":"G","market":"spot","vcpus":96}]')).toEqual([
      { region: 'eu-west-1', family: 'G', market: 'spot', vcpus: 96 },
    ]);
  });

  it.each([
    ['not JSON', '[{'],
    ['an unknown family', '[{"region":"us-east-1","family":"Inf","market":"spot","vcpus":8}]'],
    ['an unknown market', '[{"region":"us-east-1","family":"G","market":"reserved","vcpus":8}]'],
    ['a fractional vCPU count', '[{"region":"us-east-1","family":"G","market":"spot","vcpus":1.5}]'],
    ['a negative vCPU count', '[{"region":"us-east-1","family":"G","market":"spot","vcpus":-8}]'],
    ['a malformed region', '[{"region":"east","family":"G","market":"spot","vcpus":8}]'],
    ['an unknown field', '[{"region":"us-east-1","family":"G","market":"spot","vcpus":8,"zone":"a"}]'],
    [
      'one quota twice',
      '[{"region":"us-east-1","family":"G","market":"spot","vcpus":8},{"region":"us-east-1","family":"G","market":"spot","vcpus":16}]',
    ],
  ])('fails fast on %s, naming the variable', (_, value) => {
    expect(() => overrides(value)).toThrow(ConfigError);
    expect(() => overrides(value)).toThrow(/ACCOUNT_VCPU_QUOTAS/);
  });
});
