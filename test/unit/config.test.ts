import { describe, expect, it } from 'vitest';
import { ConfigError, commaList, nonEmpty, readConfig } from '../../shared/config';

describe('readConfig', () => {
  it('returns the parsed values', () => {
    expect(
      readConfig({ TABLE: nonEmpty, SUBNETS: commaList }, { TABLE: 'leases', SUBNETS: 'a, b,,c' }),
    ).toEqual({
      TABLE: 'leases',
      SUBNETS: ['a', 'b', 'c'],
    });
  });

  it('fails naming every missing or empty variable at once', () => {
    const read = () => readConfig({ TABLE: nonEmpty, QUEUE: nonEmpty, SUBNETS: commaList }, { QUEUE: '  ' });
    expect(read).toThrow(ConfigError);
    expect(read).toThrow(/TABLE: .*; QUEUE: must be set; SUBNETS: /);
  });
});
