import { describe, expect, it } from 'vitest';
import { InvalidContextError, readDeployContext } from '../../../infra/context';

const read = (values: Record<string, unknown>) => readDeployContext((key) => values[key]);
const problemsOf = (values: Record<string, unknown>): string[] => {
  try {
    read(values);
  } catch (error) {
    if (error instanceof InvalidContextError) return [...error.problems];
    throw error;
  }
  return [];
};

describe('deploy context values', () => {
  it('reads every value, lists from comma strings or arrays, and leaves empty values unset', () => {
    expect(
      read({
        region: 'eu-west-1',
        gpuRegions: ['eu-west-1'],
        operatorEmail: 'ops@example.com',
        userPoolId: 'eu-west-1_AbC123',
        vpcId: 'vpc-0abc12345def67890',
        vpcSubnets: 'subnet-0abc1234:eu-west-1a, subnet-0def5678:eu-west-1b',
        gpuAmiId: '',
        logLevel: 'WARN',
      }),
    ).toEqual({
      region: 'eu-west-1',
      gpuRegions: ['eu-west-1'],
      operatorEmail: 'ops@example.com',
      userPoolId: 'eu-west-1_AbC123',
      vpcId: 'vpc-0abc12345def67890',
      vpcSubnets: ['subnet-0abc1234:eu-west-1a', 'subnet-0def5678:eu-west-1b'],
      logLevel: 'WARN',
    });
    expect(read({})).toEqual({});
  });

  it.each([
    [{ region: 'europe' }, 'region', 'AWS region'],
    [{ gpuRegions: 'us-east-1,mars-1' }, 'gpuRegions', 'AWS region'],
    [{ operatorEmail: 'ops-at-example' }, 'operatorEmail', 'e-mail'],
    [{ userPoolId: 'pool-1' }, 'userPoolId', 'user pool id'],
    [{ vpcId: 'vpc-0abc12345def67890' }, 'vpcSubnets', 'go together'],
    [{ vpcSubnets: 'subnet-0abc1234:us-east-1a' }, 'vpcId', 'go together'],
    [{ vpcId: 'vpc-1', vpcSubnets: 'subnet-0abc1234:us-east-1a' }, 'vpcId', 'VPC id'],
    [{ vpcId: 'vpc-0abc12345', vpcSubnets: 'subnet-0abc1234' }, 'vpcSubnets', 'subnet-id:zone'],
    [{ gpuAmiId: 'ubuntu' }, 'gpuAmiId', 'AMI id'],
    [{ logLevel: 'LOUD' }, 'logLevel', 'DEBUG, INFO, WARN or ERROR'],
    [{ availabilityZones: 'us-east-1' }, 'availabilityZones', 'zones'],
  ])('refuses %j naming %s and what to set', (values, key, hint) => {
    const problems = problemsOf(values);
    expect(problems).toHaveLength(1);
    expect(problems[0]).toContain(`context value "${key}"`);
    expect(problems[0]).toContain(hint);
    expect(problems[0]).toContain(`-c ${key}=`);
  });

  it('names every bad value at once', () => {
    const problems = problemsOf({ region: 'x', operatorEmail: 'y', logLevel: 'z' });
    expect(problems.map((p) => p.match(/"(\w+)"/)?.[1]).sort()).toEqual([
      'logLevel',
      'operatorEmail',
      'region',
    ]);
  });
});
