import * as z from '../../zod';
import {
  CUSTOM_STATISTICS,
  GPU_METRIC_NAMES,
  GPU_METRICS,
  GPU_STATISTICS,
  type GpuMetric,
  PERCENTILE_STATISTIC,
} from './metrics';

export const COMPARISONS = ['>', '>=', '<', '<='] as const;
export type Comparison = (typeof COMPARISONS)[number];

/** Conditions across both rules of a policy; more is a sign of a policy nobody can reason about. */
export const MAX_CONDITIONS = 10;
/** Cooldowns are bounded by a day: longer is "never scale", which min = max says more plainly. */
export const MAX_COOLDOWN_SECONDS = 86_400;
/** The longest window a condition may judge, in datapoints. */
export const MAX_WINDOW_DATAPOINTS = 60;

/**
 * N of M: the condition holds when at least `sustainedFor` of the last `outOf`
 * one-period datapoints breach the threshold. A missing datapoint never
 * breaches, whichever way the comparison points.
 */
const window = {
  sustainedFor: z._default(
    z
      .int()
      .check(
        z.gte(2, 'must be at least 2 datapoints, so that one noisy datapoint never triggers scaling'),
        z.lte(MAX_WINDOW_DATAPOINTS, `must be at most ${MAX_WINDOW_DATAPOINTS} datapoints`),
      ),
    3,
  ),
  outOf: z.optional(
    z
      .int()
      .check(
        z.gte(2, 'must be at least 2 datapoints'),
        z.lte(MAX_WINDOW_DATAPOINTS, `must be at most ${MAX_WINDOW_DATAPOINTS} datapoints`),
      ),
  ),
  comparison: z.enum(COMPARISONS),
  threshold: z.number().check(z.refine(Number.isFinite, 'must be a finite number')),
};

const gpuConditionSchema = z.strictObject({
  metric: z.enum(GPU_METRIC_NAMES),
  /** How the fleet's GPUs combine each minute: their mean, the hottest or the coolest. */
  statistic: z._default(z.enum(GPU_STATISTICS), 'Average'),
  ...window,
});

const dimensionName = z.string().check(z.minLength(1), z.maxLength(255));
const customConditionSchema = z.strictObject({
  metric: z.literal('custom'),
  namespace: z
    .string()
    .check(
      z.minLength(1, 'must name the CloudWatch namespace'),
      z.maxLength(255),
      z.describe("One of the tenant's own namespaces, gpurent/<tenant>/… (any other is refused)"),
    ),
  name: z.string().check(z.minLength(1, 'must name the CloudWatch metric'), z.maxLength(255)),
  dimensions: z._default(
    z
      .record(dimensionName, z.string().check(z.minLength(1), z.maxLength(1024)))
      .check(z.refine((d) => Object.keys(d).length <= 30, 'may have at most 30 dimensions')),
    {},
  ),
  statistic: z
    .string()
    .check(
      z.refine(
        (s: string) => (CUSTOM_STATISTICS as readonly string[]).includes(s) || PERCENTILE_STATISTIC.test(s),
        `must be one of ${CUSTOM_STATISTICS.join(', ')} or a percentile such as p90`,
      ),
    ),
  ...window,
});

const conditionSchema = z.pipe(
  z.discriminatedUnion('metric', [gpuConditionSchema, customConditionSchema]).check(
    z.superRefine((condition, ctx) => {
      if (condition.metric !== 'custom') {
        const { min, max, unit } = GPU_METRICS[condition.metric];
        if (condition.threshold < min || condition.threshold > max) {
          ctx.addIssue({
            code: 'custom',
            path: ['threshold'],
            message: `must be between ${min} and ${max}${unit} for ${condition.metric} (got ${condition.threshold})`,
          });
        }
      }
      if (condition.outOf !== undefined && condition.outOf < condition.sustainedFor) {
        ctx.addIssue({
          code: 'custom',
          path: ['outOf'],
          message: `must be at least sustainedFor (${condition.outOf} < ${condition.sustainedFor})`,
        });
      }
    }),
  ),
  z.transform(
    <Condition extends { outOf?: number | undefined; sustainedFor: number }>(condition: Condition) => ({
      ...condition,
      outOf: condition.outOf ?? condition.sustainedFor,
    }),
  ),
);

export type ScalingCondition = z.output<typeof conditionSchema>;
export type GpuCondition = Extract<ScalingCondition, { metric: GpuMetric }>;
export type CustomCondition = Extract<ScalingCondition, { metric: 'custom' }>;

const ruleSchema = (defaultCooldownSeconds: number) =>
  z.strictObject({
    /** `all`: every condition must hold; `any`: one is enough. */
    match: z._default(z.enum(['all', 'any']), 'all'),
    conditions: z.array(conditionSchema).check(z.minLength(1, 'needs at least one condition')),
    /** GPUs added or removed by one action. */
    step: z._default(
      z.int().check(z.gte(1, 'must add or remove at least 1 GPU'), z.lte(100, 'must be at most 100 GPUs')),
      1,
    ),
    /** How long after this rule acted the fleet waits before the next action it blocks. */
    cooldownSeconds: z._default(
      z
        .int()
        .check(
          z.gte(0, 'must be 0 or more seconds'),
          z.lte(MAX_COOLDOWN_SECONDS, `must be at most ${MAX_COOLDOWN_SECONDS} s (one day)`),
        ),
      defaultCooldownSeconds,
    ),
  });

export type ScalingRule = z.output<ReturnType<typeof ruleSchema>>;

/** The product default: scale out when GPU utilization stays above 80%; 5 minutes' cooldown. */
export const DEFAULT_SCALE_OUT: ScalingRule = {
  match: 'all',
  conditions: [
    {
      metric: 'gpuUtilization',
      statistic: 'Average',
      comparison: '>',
      threshold: 80,
      sustainedFor: 3,
      outOf: 3,
    },
  ],
  step: 1,
  cooldownSeconds: 300,
};

/**
 * The product default: scale in when GPU utilization stays below 30%. It waits
 * longer than scale-out (5 datapoints, then 10 minutes' cooldown) because
 * removing a GPU too early costs an SLO miss and a fresh boot, while keeping one
 * a few minutes more costs a few cents.
 */
export const DEFAULT_SCALE_IN: ScalingRule = {
  match: 'all',
  conditions: [
    {
      metric: 'gpuUtilization',
      statistic: 'Average',
      comparison: '<',
      threshold: 30,
      sustainedFor: 5,
      outOf: 5,
    },
  ],
  step: 1,
  cooldownSeconds: 600,
};

/** The two rules, with a copy of each default per policy so that changing one never changes the shared default. */
export const rulesShape = {
  scaleOut: z._default(ruleSchema(DEFAULT_SCALE_OUT.cooldownSeconds), () =>
    structuredClone(DEFAULT_SCALE_OUT),
  ),
  scaleIn: z._default(ruleSchema(DEFAULT_SCALE_IN.cooldownSeconds), () => structuredClone(DEFAULT_SCALE_IN)),
};

export interface RulesIssue {
  readonly path: (string | number)[];
  readonly message: string;
}

/**
 * What makes a pair of rules unusable whatever the fleet: too many conditions,
 * an empty fleet that could never see load, or thresholds that let both rules
 * hold at once (the fleet would flap). `minPath` names the minimum's field.
 */
export function rulesIssues(
  rules: { scaleOut: ScalingRule; scaleIn: ScalingRule },
  min: number,
  minPath: string,
): RulesIssue[] {
  const issues: RulesIssue[] = [];
  const count = rules.scaleOut.conditions.length + rules.scaleIn.conditions.length;
  if (count > MAX_CONDITIONS) {
    issues.push({
      path: ['scaleOut', 'conditions'],
      message: `scaleOut and scaleIn may have at most ${MAX_CONDITIONS} conditions together (got ${count})`,
    });
  }
  const watchesCustom = rules.scaleOut.conditions.some((c) => c.metric === 'custom');
  if (min === 0 && !watchesCustom) {
    issues.push({
      path: [minPath],
      message:
        'is 0, so scaleOut needs a custom metric condition (e.g. queue depth): an empty fleet publishes no GPU metrics and could never scale out',
    });
  }
  return [...issues, ...flappingIssues(rules.scaleOut, rules.scaleIn)];
}

/**
 * A scale-in threshold at or above the scale-out threshold of the same GPU
 * metric and statistic lets both rules hold at once and the fleet oscillates.
 */
function flappingIssues(scaleOut: ScalingRule, scaleIn: ScalingRule): RulesIssue[] {
  return scaleIn.conditions.flatMap((inCondition, index) => {
    if (inCondition.metric === 'custom' || !isBelow(inCondition.comparison)) return [];
    const outCondition = scaleOut.conditions.find(
      (c) =>
        c.metric === inCondition.metric && c.statistic === inCondition.statistic && !isBelow(c.comparison),
    );
    if (outCondition === undefined || inCondition.threshold < outCondition.threshold) return [];
    return [
      {
        path: ['scaleIn', 'conditions', index, 'threshold'],
        message: `must be below the scaleOut threshold ${outCondition.threshold} for ${inCondition.metric} (got ${inCondition.threshold}), or the fleet flaps`,
      },
    ];
  });
}

function isBelow(comparison: Comparison): boolean {
  return comparison === '<' || comparison === '<=';
}

const scalingPolicySchema = z
  .strictObject({
    ...rulesShape,
    /** Resolution of the metric series: a datapoint older than the evaluation window is stale. */
    periodSeconds: z._default(z.int().check(z.gte(1), z.lte(300)), 60),
    minCapacity: z._default(z.int().check(z.gte(0, 'must be 0 or more GPUs')), 1),
    /** No default: the maximum is the tenant's spending cap and must be chosen. */
    maxCapacity: z
      .int({
        error: (issue) =>
          issue.input === undefined
            ? 'is required: the most GPUs the fleet may run, which caps its cost'
            : undefined,
      })
      .check(z.gte(1, 'must be at least 1 GPU')),
  })
  .check(
    z.superRefine((policy, ctx) => {
      if (policy.minCapacity > policy.maxCapacity) {
        ctx.addIssue({
          code: 'custom',
          path: ['minCapacity'],
          message: `must not exceed maxCapacity (${policy.minCapacity} > ${policy.maxCapacity})`,
        });
      }
      for (const issue of rulesIssues(policy, policy.minCapacity, 'minCapacity')) {
        ctx.addIssue({ code: 'custom', ...issue });
      }
    }),
  );

export type ScalingPolicyInput = z.input<typeof scalingPolicySchema>;
export type ScalingPolicy = z.output<typeof scalingPolicySchema>;

export interface PolicyIssue {
  /** Dotted path of the offending field, e.g. `scaleOut.conditions.0.sustainedFor`. */
  readonly path: string;
  readonly message: string;
}

export class InvalidScalingPolicyError extends Error {
  constructor(readonly issues: readonly PolicyIssue[]) {
    super(`Invalid scaling policy: ${issues.map((i) => `${i.path || '(policy)'} ${i.message}`).join('; ')}`);
    this.name = 'InvalidScalingPolicyError';
  }
}

/** Validates a policy (e.g. from a config file or a benchmark) and fills in the defaults. */
export function parseScalingPolicy(input: unknown): ScalingPolicy {
  const parsed = scalingPolicySchema.safeParse(input);
  if (parsed.success) return parsed.data;
  throw new InvalidScalingPolicyError(
    parsed.error.issues.map((issue) => ({ path: issue.path.join('.'), message: issue.message })),
  );
}
