import { describe, expect, it } from 'vitest';
import { localWarmPoolName, warmPoolFromEnv } from '../../../local/warm-pool';

describe('GPURENT_WARM_POOL', () => {
  it('is unset: no warm pool', () => {
    expect(warmPoolFromEnv({})).toBeUndefined();
  });

  it('names an instance type and a size', () => {
    const pool = warmPoolFromEnv({ GPURENT_WARM_POOL: 'g5.xlarge:2' });
    expect(pool).toEqual({ instanceType: 'g5.xlarge', size: 2 });
    expect(localWarmPoolName(pool ?? { instanceType: '', size: 0 })).toBe('local-g5-xlarge');
  });

  it.each([
    'g5.xlarge',
    'g5.xlarge:',
    ':2',
    'g5.xlarge:2.5',
    'g5.xlarge:-1',
    'g5.xlarge:101',
    'G5.XLARGE:2',
    '',
  ])('refuses %j, saying what it expects and what it got', (value) => {
    expect(() => warmPoolFromEnv({ GPURENT_WARM_POOL: value })).toThrow(
      `GPURENT_WARM_POOL must be <instance type>:<size>, size a whole number 0-100 (e.g. g5.xlarge:2); got ${JSON.stringify(value)}`,
    );
  });
});
