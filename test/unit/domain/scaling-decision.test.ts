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
const UTIL = 'gpuUtilization:Average';

/** One datapoint a minute, the last one at NOW. */
function perMinute(...values: number[]): Datapoint[] {
  return values.map((value, i) => ({ timestampMs: NOW - (values.length - 1 - i) * MINUTE, value }));
}

const util = (...values: number[]): MetricSeries => ({ [UTIL]: perMinute(...values) });

function decide(
  metrics: MetricSeries,
  overrides: Partial<Omit<ScalingInput, 'policy'>> = {},
  policy: ScalingPolicyInput = { maxCapacity: 10 },
) {
  return decideScaling({
    policy: parseScalingPolicy(policy),
    metrics,
    currentCapacity: 4,
    lastAction: null,
    nowMs: NOW,
    ...overrides,
  });
}

describe('decideScaling with the default policy', () => {
  it('scales out one GPU when utilization stays above 80% for 3 datapoints, naming the values', () => {
    const decision = decide(util(50, 85, 90.26, 95));

    expect(decision).toMatchObject({
      action: 'scale-out',
      from: 4,
      to: 5,
      reason: 'scale-out: gpuUtilization > 80% for 3 datapoints (85%, 90.3%, 95%); 4 → 5 GPUs',
    });
    expect(decision.observations).toContainEqual({
      rule: 'scaleOut',
      metric: 'gpuUtilization',
      values: [85, 90.26, 95],
    });
  });

  it('ignores one spike', () => {
    expect(decide(util(50, 55, 100)).action).toBe('none');
    expect(decide(util(50, 50, 50, 50, 5)).action).toBe('none');
    expect(decide(util(90, 90, 10, 90)).action).toBe('none');
  });

  it('scales in when utilization stays below 30% for 5 datapoints', () => {
    const decision = decide(util(20, 25, 10, 12, 29));

    expect(decision).toMatchObject({ action: 'scale-in', from: 4, to: 3 });
    expect(decision.reason).toBe(
      'scale-in: gpuUtilization < 30% for 5 datapoints (20%, 25%, 10%, 12%, 29%); 4 → 3 GPUs',
    );
  });

  it('explains what each rule needs when none is met', () => {
    const decision = decide(util(60, 70, 65, 62, 61));

    expect(decision).toMatchObject({
      action: 'none',
      from: 4,
      to: 4,
      reason:
        'no rule met: scale-out needs gpuUtilization > 80% for 3 datapoints (65%, 62%, 61%); ' +
        'scale-in needs gpuUtilization < 30% for 5 datapoints (60%, 70%, 65%, 62%, 61%)',
    });
  });

  it('reads series in any order, as CloudWatch returns newest first', () => {
    expect(decide({ [UTIL]: perMinute(50, 85, 90, 95).reverse() }).action).toBe('scale-out');
  });

  it('does not act on stale or missing data', () => {
    const stale = perMinute(90, 90, 90, 40, 40, 40, 40).slice(0, 3);
    expect(decide({ [UTIL]: stale })).toMatchObject({
      action: 'none',
      reason: expect.stringContaining('gpuUtilization > 80% for 3 datapoints (no recent datapoint)'),
    });
    expect(decide({}).action).toBe('none');
  });

  it('never reads missing datapoints as idle GPUs: gaps block a scale-in', () => {
    const sparse = perMinute(5, 5, 5, 5, 5).filter((_, i) => i % 2 === 0);

    const decision = decide({ [UTIL]: sparse });
    expect(decision.action).toBe('none');
    expect(decision.reason).toContain('gpuUtilization < 30% for 5 datapoints (5%, 5%, 5%; 2 of 5 missing)');
  });

  it('tolerates one period of publishing delay after the newest period ends, not two', () => {
    const hot = util(90, 90, 90);

    expect(decide(hot, { nowMs: NOW + 2 * MINUTE }).action).toBe('scale-out');
    expect(decide(hot, { nowMs: NOW + 3 * MINUTE }).action).toBe('none');
  });

  it('names a gap as missing datapoints', () => {
    const withGap = perMinute(90, 90, 40, 90).filter((d) => d.value > 50);

    expect(decide({ [UTIL]: withGap }).reason).toContain(
      'gpuUtilization > 80% for 3 datapoints (90%, 90%; 1 of 3 missing)',
    );
  });

  it('ignores datapoints stamped after now', () => {
    const series = [...perMinute(50, 50, 85), { timestampMs: NOW + MINUTE, value: 99 }];

    expect(decide({ [UTIL]: series }).action).toBe('none');
  });
});

describe('decideScaling with N of M datapoints', () => {
  const threeOfFive: ScalingPolicyInput = {
    maxCapacity: 10,
    scaleOut: {
      conditions: [{ metric: 'gpuUtilization', comparison: '>', threshold: 80, sustainedFor: 3, outOf: 5 }],
    },
  };

  it('acts when N of the last M breach, even with a dip between them', () => {
    const decision = decide(util(90, 40, 95, 50, 85), {}, threeOfFive);

    expect(decision.action).toBe('scale-out');
    expect(decision.reason).toContain('gpuUtilization > 80% on 3 of 5 datapoints (90%, 40%, 95%, 50%, 85%)');
  });

  it('does not act on fewer than N breaches in the window, nor count breaches older than M', () => {
    expect(decide(util(90, 40, 30, 50, 85), {}, threeOfFive).action).toBe('none');
    expect(decide(util(90, 90, 40, 30, 50, 60, 85), {}, threeOfFive).action).toBe('none');
  });

  it('counts a missing datapoint as no breach', () => {
    const gapped = perMinute(90, 90, 90, 90, 90).filter((_, i) => i !== 1 && i !== 3);

    expect(decide({ [UTIL]: gapped }, {}, threeOfFive).action).toBe('scale-out');
    expect(decide({ [UTIL]: gapped.slice(1) }, {}, threeOfFive).action).toBe('none');
  });
});

describe('decideScaling cooldowns', () => {
  const hot = util(90, 90, 90);
  const cold = util(5, 5, 5, 5, 5);

  it('holds a scale-out for 5 minutes after a scale-out, naming the wait', () => {
    const decision = decide(hot, { lastAction: { action: 'scale-out', atMs: NOW - 4 * MINUTE } });

    expect(decision).toMatchObject({
      action: 'none',
      from: 4,
      to: 4,
      reason:
        'scale-out: gpuUtilization > 80% for 3 datapoints (90%, 90%, 90%), but cooling down for 60 s more after the last scale-out',
    });
    expect(decide(hot, { lastAction: { action: 'scale-out', atMs: NOW - 5 * MINUTE } }).action).toBe(
      'scale-out',
    );
  });

  it('holds a scale-in for 10 minutes after a scale-in', () => {
    expect(decide(cold, { lastAction: { action: 'scale-in', atMs: NOW - 9 * MINUTE } }).action).toBe('none');
    expect(decide(cold, { lastAction: { action: 'scale-in', atMs: NOW - 10 * MINUTE } }).action).toBe(
      'scale-in',
    );
  });

  it('holds a scale-in during the scale-out cooldown, but never a scale-out after a scale-in', () => {
    expect(decide(cold, { lastAction: { action: 'scale-out', atMs: NOW - 4 * MINUTE } }).action).toBe('none');
    expect(decide(hot, { lastAction: { action: 'scale-in', atMs: NOW - MINUTE } }).action).toBe('scale-out');
  });

  it('uses the configured cooldowns, down to none', () => {
    const policy: ScalingPolicyInput = {
      maxCapacity: 10,
      scaleOut: {
        conditions: [{ metric: 'gpuUtilization', comparison: '>', threshold: 80 }],
        cooldownSeconds: 0,
      },
    };

    expect(decide(hot, { lastAction: { action: 'scale-out', atMs: NOW } }, policy).action).toBe('scale-out');
  });
});

describe('decideScaling while GPUs wait for admission', () => {
  it('adds none while GPUs asked for earlier wait in the admission queue, but still scales in', () => {
    expect(decide(util(90, 90, 90), { waitingForAdmission: 1 })).toMatchObject({
      action: 'none',
      from: 4,
      to: 4,
      reason:
        'scale-out: gpuUtilization > 80% for 3 datapoints (90%, 90%, 90%), but 1 GPU asked for earlier still waits in the admission queue',
    });
    expect(decide(util(90, 90, 90), { waitingForAdmission: 2 }).reason).toContain(
      'but 2 GPUs asked for earlier still wait in the admission queue',
    );
    expect(decide(util(90, 90, 90), { waitingForAdmission: 0 }).action).toBe('scale-out');
    expect(decide(util(5, 5, 5, 5, 5), { waitingForAdmission: 1 })).toMatchObject({
      action: 'scale-in',
      to: 3,
    });
  });
});

describe('decideScaling bounds', () => {
  const policy: ScalingPolicyInput = {
    minCapacity: 2,
    maxCapacity: 6,
    scaleOut: { conditions: [{ metric: 'gpuUtilization', comparison: '>', threshold: 80 }], step: 4 },
    scaleIn: { conditions: [{ metric: 'gpuUtilization', comparison: '<', threshold: 30 }], step: 4 },
  };

  it('clamps a step to the maximum and the minimum', () => {
    expect(decide(util(95, 95, 95), { currentCapacity: 4 }, policy)).toMatchObject({
      action: 'scale-out',
      to: 6,
    });
    expect(decide(util(5, 5, 5), { currentCapacity: 4 }, policy)).toMatchObject({
      action: 'scale-in',
      to: 2,
    });
  });

  it('says so when the fleet is already at a bound', () => {
    expect(decide(util(95, 95, 95), { currentCapacity: 6 }, policy)).toMatchObject({
      action: 'none',
      from: 6,
      to: 6,
      reason:
        'scale-out: gpuUtilization > 80% for 3 datapoints (95%, 95%, 95%), but the fleet is at its maximum of 6 GPUs',
    });
    expect(decide(util(5, 5, 5), { currentCapacity: 2 }, policy).reason).toContain(
      'but the fleet is at its minimum of 2 GPUs',
    );
  });

  it('brings a fleet outside its bounds back inside, even during a cooldown', () => {
    const during = { lastAction: { action: 'scale-out' as const, atMs: NOW - MINUTE } };

    expect(decide({}, { currentCapacity: 0, ...during }, policy)).toMatchObject({
      action: 'scale-out',
      from: 0,
      to: 2,
      reason: 'below minimum: 0 < 2 GPUs',
    });
    expect(decide({}, { currentCapacity: 9, ...during }, policy)).toMatchObject({
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
  const metrics = {
    'gpuMemoryUsed:Average': perMinute(92, 95),
    'gpuTemperature:Average': perMinute(70, 72),
  };

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

  it('scales on a custom metric (queue depth) and the hottest GPU', () => {
    const policy: ScalingPolicyInput = {
      maxCapacity: 10,
      scaleOut: {
        match: 'all',
        conditions: [
          {
            metric: 'custom',
            namespace: 'Shop',
            name: 'QueueDepth',
            dimensions: { Queue: 'orders' },
            statistic: 'Sum',
            comparison: '>',
            threshold: 100,
            sustainedFor: 2,
          },
          { metric: 'gpuPower', statistic: 'Maximum', comparison: '>', threshold: 250, sustainedFor: 2 },
        ],
      },
    };
    const decision = decide(
      {
        'custom:Shop:QueueDepth:Queue=orders:Sum': perMinute(150, 420),
        'gpuPower:Maximum': perMinute(280, 290.5),
      },
      {},
      policy,
    );

    expect(decision.reason).toBe(
      'scale-out: Shop/QueueDepth Sum > 100 for 2 datapoints (150, 420) and gpuPower (Maximum) > 250 W for 2 datapoints (280 W, 290.5 W); 4 → 5 GPUs',
    );
  });

  it('prefers scale-out when both rules hold at once', () => {
    const policy: ScalingPolicyInput = {
      maxCapacity: 10,
      scaleOut: {
        conditions: [
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
    };
    const decision = decide(
      { 'custom:Shop:QueueDepth::Sum': perMinute(500, 500, 500), [UTIL]: perMinute(5, 5, 5, 5, 5) },
      {},
      policy,
    );

    expect(decision.action).toBe('scale-out');
  });
});
