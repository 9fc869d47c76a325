import { describe, expect, it } from 'vitest';
import {
  DEFAULT_SCALE_IN,
  DEFAULT_SCALE_OUT,
  InvalidScalingPolicyError,
  parseScalingPolicy,
} from '../../../shared/domain/scaling';

function issuesOf(input: unknown) {
  try {
    parseScalingPolicy(input);
  } catch (error) {
    expect(error).toBeInstanceOf(InvalidScalingPolicyError);
    return (error as InvalidScalingPolicyError).issues;
  }
  throw new Error('expected the policy to be rejected');
}

describe('parseScalingPolicy', () => {
  it('fills in the product defaults: out above 80% utilization, in below 30%, cooldowns 5 and 10 min', () => {
    const policy = parseScalingPolicy({ maxCapacity: 8 });

    expect(policy).toEqual({
      scaleOut: DEFAULT_SCALE_OUT,
      scaleIn: DEFAULT_SCALE_IN,
      periodSeconds: 60,
      minCapacity: 1,
      maxCapacity: 8,
    });
    expect(DEFAULT_SCALE_OUT.conditions).toEqual([
      {
        metric: 'gpuUtilization',
        statistic: 'Average',
        comparison: '>',
        threshold: 80,
        sustainedFor: 3,
        outOf: 3,
      },
    ]);
    expect([DEFAULT_SCALE_OUT.cooldownSeconds, DEFAULT_SCALE_IN.cooldownSeconds]).toEqual([300, 600]);
    expect(DEFAULT_SCALE_IN.conditions[0]).toMatchObject({
      metric: 'gpuUtilization',
      comparison: '<',
      threshold: 30,
    });
  });

  it('gives each policy its own copy of the default rules', () => {
    const first = parseScalingPolicy({ maxCapacity: 2 });
    first.scaleOut.step = 5;

    expect(parseScalingPolicy({ maxCapacity: 2 }).scaleOut.step).toBe(1);
    expect(DEFAULT_SCALE_OUT.step).toBe(1);
  });

  it('accepts a cooldown anywhere from 0 s to a day', () => {
    const rule = (cooldownSeconds: number) => ({
      maxCapacity: 2,
      scaleIn: {
        conditions: [{ metric: 'gpuUtilization', comparison: '<', threshold: 30 }],
        cooldownSeconds,
      },
    });
    expect(parseScalingPolicy(rule(86_400)).scaleIn.cooldownSeconds).toBe(86_400);
    expect(parseScalingPolicy(rule(0)).scaleIn.cooldownSeconds).toBe(0);
    expect(issuesOf(rule(-1))).toEqual([
      { path: 'scaleIn.cooldownSeconds', message: expect.stringContaining('0 or more') },
    ]);
    expect(issuesOf(rule(86_401))).toEqual([
      { path: 'scaleIn.cooldownSeconds', message: expect.stringContaining('one day') },
    ]);
  });

  it('refuses unknown metrics, statistics and fields, and more than 10 conditions', () => {
    const condition = { metric: 'gpuUtilization', comparison: '>', threshold: 80 };
    expect(issuesOf({ maxCapacity: 2, scaleOut: { conditions: [{ ...condition, metric: 'cpu' }] } })).toEqual(
      [{ path: 'scaleOut.conditions.0.metric', message: expect.stringContaining('Invalid discriminator') }],
    );
    expect(
      issuesOf({ maxCapacity: 2, scaleOut: { conditions: [{ ...condition, statistic: 'p95' }] } })[0],
    ).toMatchObject({ path: 'scaleOut.conditions.0.statistic' });
    expect(
      issuesOf({
        maxCapacity: 2,
        scaleOut: {
          conditions: [
            {
              metric: 'custom',
              namespace: 'A',
              name: 'B',
              statistic: 'Median',
              comparison: '>',
              threshold: 1,
            },
          ],
        },
      }),
    ).toEqual([{ path: 'scaleOut.conditions.0.statistic', message: expect.stringContaining('percentile') }]);
    expect(issuesOf({ maxCapacity: 2, scaleOut: { conditions: [{ ...condition, thresold: 3 }] } })).toEqual([
      { path: 'scaleOut.conditions.0', message: expect.stringContaining('thresold') },
    ]);
    expect(issuesOf({ maxCapacity: 2, scaleOut: { conditions: Array(11).fill(condition) } })).toEqual([
      {
        path: 'scaleOut.conditions',
        message: expect.stringContaining('at most 10 conditions together (got 12)'),
      },
    ]);
  });

  it('refuses an N of M window where N exceeds M', () => {
    expect(
      issuesOf({
        maxCapacity: 2,
        scaleOut: {
          conditions: [
            { metric: 'gpuUtilization', comparison: '>', threshold: 80, sustainedFor: 4, outOf: 3 },
          ],
        },
      }),
    ).toEqual([{ path: 'scaleOut.conditions.0.outOf', message: 'must be at least sustainedFor (3 < 4)' }]);
  });

  it('requires a maximum, since it caps the fleet cost', () => {
    expect(issuesOf({})).toEqual([{ path: 'maxCapacity', message: expect.stringContaining('is required') }]);
  });

  it('rejects a condition sustained for a single datapoint', () => {
    const issues = issuesOf({
      maxCapacity: 4,
      scaleOut: {
        conditions: [{ metric: 'gpuUtilization', comparison: '>', threshold: 80, sustainedFor: 1 }],
      },
    });

    expect(issues).toEqual([
      { path: 'scaleOut.conditions.0.sustainedFor', message: expect.stringContaining('one noisy datapoint') },
    ]);
  });

  it('names every problem with its path and what is allowed', () => {
    const issues = issuesOf({
      maxCapacity: 2,
      minCapacity: 3,
      scaleOut: { conditions: [{ metric: 'gpuTemperature', comparison: '>', threshold: 400 }], step: 0 },
    });

    expect(issues).toEqual([
      {
        path: 'scaleOut.conditions.0.threshold',
        message: 'must be between 0 and 120°C for gpuTemperature (got 400)',
      },
      { path: 'scaleOut.step', message: 'must add or remove at least 1 GPU' },
      { path: 'minCapacity', message: 'must not exceed maxCapacity (3 > 2)' },
    ]);
  });

  it('reports malformed input in the error message', () => {
    expect(() =>
      parseScalingPolicy({ maxCapacity: 'ten', scaleOut: { match: 'most', conditions: [] } }),
    ).toThrow(
      /scaleOut\.match .*"all"\|"any".*scaleOut\.conditions needs at least one condition.*maxCapacity .*expected number/,
    );
  });

  it('rejects a scale-in threshold that overlaps the scale-out one on the same metric', () => {
    const issues = issuesOf({
      maxCapacity: 4,
      scaleIn: { conditions: [{ metric: 'gpuUtilization', comparison: '<=', threshold: 80 }] },
    });

    expect(issues).toEqual([
      {
        path: 'scaleIn.conditions.0.threshold',
        message: 'must be below the scaleOut threshold 80 for gpuUtilization (got 80), or the fleet flaps',
      },
    ]);
  });

  it('allows an empty fleet only when scale-out watches a custom metric', () => {
    expect(issuesOf({ maxCapacity: 4, minCapacity: 0 })).toEqual([
      { path: 'minCapacity', message: expect.stringContaining('needs a custom metric condition') },
    ]);

    const policy = parseScalingPolicy({
      maxCapacity: 4,
      minCapacity: 0,
      scaleOut: {
        match: 'any',
        conditions: [
          { metric: 'gpuUtilization', comparison: '>', threshold: 80 },
          {
            metric: 'custom',
            namespace: 'Shop',
            name: 'QueueDepth',
            statistic: 'Sum',
            comparison: '>',
            threshold: 100,
          },
        ],
      },
    });
    expect(policy.minCapacity).toBe(0);
  });
});
