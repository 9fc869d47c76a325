import { describe, expect, it } from 'vitest';
import {
  type Datapoint,
  decideScaling,
  type MetricSeries,
  parseScalingPolicy,
  type ScalingInput,
  type ScalingPolicyInput,
} from '../../../shared/domain/scaling';

const MINUTE = 60_000;
const NOW = 100 * MINUTE;

/** One datapoint a minute, the last one at NOW. */
function perMinute(...values: number[]): Datapoint[] {
  return values.map((value, i) => ({ timestampMs: NOW - (values.length - 1 - i) * MINUTE, value }));
}

function decide(
  metrics: MetricSeries,
  overrides: Partial<Omit<ScalingInput, 'policy'>> = {},
  policy: ScalingPolicyInput = { maxCapacity: 10 },
) {
  return decideScaling({
    policy: parseScalingPolicy(policy),
    metrics,
    currentCapacity: 4,
    lastScalingAtMs: null,
    nowMs: NOW,
    ...overrides,
  });
}

describe('decideScaling with the default policy', () => {
  it('scales out one GPU when utilization stays above 80% for 3 datapoints, naming the values', () => {
    const decision = decide({ gpuUtilization: perMinute(50, 85, 90.26, 95) });

    expect(decision).toEqual({
      action: 'scale-out',
      from: 4,
      to: 5,
      reason: 'scale-out: gpuUtilization > 80% for 3 datapoints (85%, 90.3%, 95%); 4 → 5 GPUs',
    });
  });

  it('ignores one noisy datapoint', () => {
    expect(decide({ gpuUtilization: perMinute(50, 55, 100) }).action).toBe('none');
    expect(decide({ gpuUtilization: perMinute(50, 50, 50, 50, 5) }).action).toBe('none');
    expect(decide({ gpuUtilization: perMinute(90, 90, 10, 90) }).action).toBe('none');
  });

  it('scales in when utilization stays below 30% for 5 datapoints', () => {
    const decision = decide({ gpuUtilization: perMinute(20, 25, 10, 12, 29) });

    expect(decision).toMatchObject({ action: 'scale-in', from: 4, to: 3 });
    expect(decision.reason).toBe(
      'scale-in: gpuUtilization < 30% for 5 datapoints (20%, 25%, 10%, 12%, 29%); 4 → 3 GPUs',
    );
  });

  it('explains what each rule needs when none is met', () => {
    const decision = decide({ gpuUtilization: perMinute(60, 70, 65, 62, 61) });

    expect(decision).toEqual({
      action: 'none',
      from: 4,
      to: 4,
      reason:
        'no rule met: scale-out needs gpuUtilization > 80% for 3 datapoints (65%, 62%, 61%); ' +
        'scale-in needs gpuUtilization < 30% for 5 datapoints (60%, 70%, 65%, 62%, 61%)',
    });
  });

  it('reads series in any order, as CloudWatch returns newest first', () => {
    const decision = decide({ gpuUtilization: perMinute(50, 85, 90, 95).reverse() });

    expect(decision.action).toBe('scale-out');
  });

  it('does not act on stale or missing data', () => {
    const stale = perMinute(90, 90, 90, 40, 40, 40, 40).slice(0, 3);
    expect(decide({ gpuUtilization: stale })).toMatchObject({
      action: 'none',
      reason: expect.stringContaining(
        'gpuUtilization > 80% for 3 datapoints (only 0 consecutive recent datapoints)',
      ),
    });
    expect(decide({}).action).toBe('none');
  });

  it('tolerates one period of publishing delay after the newest period ends, not two', () => {
    const hot = { gpuUtilization: perMinute(90, 90, 90) };

    expect(decide(hot, { nowMs: NOW + 2 * MINUTE }).action).toBe('scale-out');
    expect(decide(hot, { nowMs: NOW + 3 * MINUTE }).action).toBe('none');
  });

  it('names a gap as a broken streak', () => {
    const withGap = perMinute(90, 90, 40, 90).filter((d) => d.value > 50);

    expect(decide({ gpuUtilization: withGap }).reason).toContain(
      'gpuUtilization > 80% for 3 datapoints (only 1 consecutive recent datapoint)',
    );
  });

  it('ignores datapoints stamped after now', () => {
    const series = [...perMinute(50, 50, 85), { timestampMs: NOW + MINUTE, value: 99 }];

    expect(decide({ gpuUtilization: series }).action).toBe('none');
  });
});

describe('decideScaling cooldown', () => {
  const hot = { gpuUtilization: perMinute(90, 90, 90) };

  it('holds any action until the cooldown after the last one has passed', () => {
    const decision = decide(hot, { lastScalingAtMs: NOW - 4 * MINUTE });

    expect(decision).toEqual({
      action: 'none',
      from: 4,
      to: 4,
      reason:
        'scale-out: gpuUtilization > 80% for 3 datapoints (90%, 90%, 90%), but cooling down for 60 s more after the last action',
    });
  });

  it('acts again once the cooldown has passed', () => {
    expect(decide(hot, { lastScalingAtMs: NOW - 5 * MINUTE }).action).toBe('scale-out');
  });

  it('uses the configured cooldown', () => {
    const policy = { maxCapacity: 10, cooldownSeconds: 600 };

    expect(decide(hot, { lastScalingAtMs: NOW - 9 * MINUTE }, policy).action).toBe('none');
    expect(decide(hot, { lastScalingAtMs: NOW - 10 * MINUTE }, policy).action).toBe('scale-out');
  });
});

describe('decideScaling bounds', () => {
  const policy = {
    minCapacity: 2,
    maxCapacity: 6,
    scaleOut: {
      conditions: [{ metric: 'gpuUtilization' as const, comparison: '>' as const, threshold: 80 }],
      step: 4,
    },
    scaleIn: {
      conditions: [{ metric: 'gpuUtilization' as const, comparison: '<' as const, threshold: 30 }],
      step: 4,
    },
  };

  it('clamps a step to the maximum and the minimum', () => {
    expect(decide({ gpuUtilization: perMinute(95, 95, 95) }, { currentCapacity: 4 }, policy)).toMatchObject({
      action: 'scale-out',
      to: 6,
    });
    expect(decide({ gpuUtilization: perMinute(5, 5, 5) }, { currentCapacity: 4 }, policy)).toMatchObject({
      action: 'scale-in',
      to: 2,
    });
  });

  it('says so when the fleet is already at a bound', () => {
    expect(decide({ gpuUtilization: perMinute(95, 95, 95) }, { currentCapacity: 6 }, policy)).toEqual({
      action: 'none',
      from: 6,
      to: 6,
      reason:
        'scale-out: gpuUtilization > 80% for 3 datapoints (95%, 95%, 95%), but the fleet is at its maximum of 6 GPUs',
    });
    expect(decide({ gpuUtilization: perMinute(5, 5, 5) }, { currentCapacity: 2 }, policy).reason).toContain(
      'but the fleet is at its minimum of 2 GPUs',
    );
  });

  it('brings a fleet outside its bounds back inside, even during a cooldown', () => {
    const during = { lastScalingAtMs: NOW - MINUTE };

    expect(decide({}, { currentCapacity: 0, ...during }, policy)).toEqual({
      action: 'scale-out',
      from: 0,
      to: 2,
      reason: 'below minimum: 0 < 2 GPUs',
    });
    expect(decide({}, { currentCapacity: 9, ...during }, policy)).toEqual({
      action: 'scale-in',
      from: 9,
      to: 6,
      reason: 'above maximum: 9 > 6 GPUs',
    });
  });
});

describe('decideScaling with combined conditions', () => {
  const memoryAndHeat = [
    { metric: 'gpuMemoryUsed' as const, comparison: '>=' as const, threshold: 90, sustainedFor: 2 },
    { metric: 'gpuTemperature' as const, comparison: '>' as const, threshold: 85, sustainedFor: 2 },
  ];
  const metrics = { gpuMemoryUsed: perMinute(92, 95), gpuTemperature: perMinute(70, 72) };

  it('`all` needs every condition to hold and names the one that did not', () => {
    const decision = decide(
      metrics,
      {},
      { maxCapacity: 10, scaleOut: { match: 'all', conditions: memoryAndHeat } },
    );

    expect(decision.action).toBe('none');
    expect(decision.reason).toContain(
      'scale-out needs all of: gpuTemperature > 85°C for 2 datapoints (70°C, 72°C)',
    );
  });

  it('`any` fires on one condition and names it', () => {
    const decision = decide(
      metrics,
      {},
      { maxCapacity: 10, scaleOut: { match: 'any', conditions: memoryAndHeat } },
    );

    expect(decision).toMatchObject({ action: 'scale-out', to: 5 });
    expect(decision.reason).toBe('scale-out: gpuMemoryUsed >= 90% for 2 datapoints (92%, 95%); 4 → 5 GPUs');
  });

  it('scales on queue depth and power', () => {
    const policy = {
      maxCapacity: 10,
      scaleOut: {
        match: 'all' as const,
        conditions: [
          { metric: 'queueDepth' as const, comparison: '>' as const, threshold: 100, sustainedFor: 2 },
          { metric: 'gpuPower' as const, comparison: '>' as const, threshold: 250, sustainedFor: 2 },
        ],
      },
    };
    const decision = decide({ queueDepth: perMinute(150, 420), gpuPower: perMinute(280, 290.5) }, {}, policy);

    expect(decision.reason).toBe(
      'scale-out: queueDepth > 100 for 2 datapoints (150, 420) and gpuPower > 250 W for 2 datapoints (280 W, 290.5 W); 4 → 5 GPUs',
    );
  });

  it('prefers scale-out when both rules hold at once', () => {
    const policy = {
      maxCapacity: 10,
      scaleOut: { conditions: [{ metric: 'queueDepth' as const, comparison: '>' as const, threshold: 100 }] },
    };
    const decision = decide(
      { queueDepth: perMinute(500, 500, 500), gpuUtilization: perMinute(5, 5, 5, 5, 5) },
      {},
      policy,
    );

    expect(decision.action).toBe('scale-out');
  });
});
