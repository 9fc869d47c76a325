import { z } from 'zod';
import { SCALING_METRIC_NAMES, SCALING_METRICS } from './metrics';

export const COMPARISONS = ['>', '>=', '<', '<='] as const;
export type Comparison = (typeof COMPARISONS)[number];

const conditionSchema = z
  .object({
    metric: z.enum(SCALING_METRIC_NAMES),
    comparison: z.enum(COMPARISONS),
    threshold: z.number(),
    sustainedFor: z
      .int()
      .min(2, 'must be at least 2 datapoints, so that one noisy datapoint never triggers scaling')
      .max(60, 'must be at most 60 datapoints; longer windows react too late to matter')
      .default(3),
  })
  .superRefine((condition, ctx) => {
    const { min, max, unit } = SCALING_METRICS[condition.metric];
    if (condition.threshold < min || condition.threshold > max) {
      ctx.addIssue({
        code: 'custom',
        path: ['threshold'],
        message: `must be between ${min} and ${max}${unit} for ${condition.metric} (got ${condition.threshold})`,
      });
    }
  });

const ruleSchema = z.object({
  /** `all`: every condition must hold; `any`: one is enough. */
  match: z.enum(['all', 'any']).default('all'),
  conditions: z.array(conditionSchema).min(1, 'needs at least one condition'),
  /** GPUs added or removed by one action. */
  step: z.int().min(1, 'must add or remove at least 1 GPU').default(1),
});

export type ScalingCondition = z.output<typeof conditionSchema>;
export type ScalingRule = z.output<typeof ruleSchema>;

/** The product default: scale out when GPU utilization stays above 80%. */
export const DEFAULT_SCALE_OUT: ScalingRule = {
  match: 'all',
  conditions: [{ metric: 'gpuUtilization', comparison: '>', threshold: 80, sustainedFor: 3 }],
  step: 1,
};

/**
 * The product default: scale in when GPU utilization stays below 30%. It waits
 * longer than scale-out because removing a GPU too early costs an SLO miss and
 * a fresh boot, while keeping one a few minutes more costs a few cents.
 */
export const DEFAULT_SCALE_IN: ScalingRule = {
  match: 'all',
  conditions: [{ metric: 'gpuUtilization', comparison: '<', threshold: 30, sustainedFor: 5 }],
  step: 1,
};

const scalingPolicySchema = z
  .object({
    // A copy per policy, so that changing one policy's rule never changes the shared default.
    scaleOut: ruleSchema.default(() => structuredClone(DEFAULT_SCALE_OUT)),
    scaleIn: ruleSchema.default(() => structuredClone(DEFAULT_SCALE_IN)),
    cooldownSeconds: z
      .int()
      .min(300, 'must be at least 300 s (5 min): a new GPU needs that long to show in the metrics')
      .max(600, 'must be at most 600 s (10 min), or the fleet reacts too late to load')
      .default(300),
    /** Resolution of the metric series: a datapoint older than the evaluation window is stale. */
    periodSeconds: z.int().min(1).max(300).default(60),
    minCapacity: z.int().min(0, 'must be 0 or more GPUs').default(1),
    /** No default: the maximum is the tenant's spending cap and must be chosen. */
    maxCapacity: z
      .int({
        error: (issue) =>
          issue.input === undefined
            ? 'is required: the most GPUs the fleet may run, which caps its cost'
            : undefined,
      })
      .min(1, 'must be at least 1 GPU'),
  })
  .superRefine((policy, ctx) => {
    if (policy.minCapacity > policy.maxCapacity) {
      ctx.addIssue({
        code: 'custom',
        path: ['minCapacity'],
        message: `must not exceed maxCapacity (${policy.minCapacity} > ${policy.maxCapacity})`,
      });
    }
    const watchesQueue = policy.scaleOut.conditions.some((c) => c.metric === 'queueDepth');
    if (policy.minCapacity === 0 && !watchesQueue) {
      ctx.addIssue({
        code: 'custom',
        path: ['minCapacity'],
        message:
          'is 0, so scaleOut needs a queueDepth condition: an empty fleet publishes no GPU metrics and could never scale out',
      });
    }
    for (const issue of flappingIssues(policy.scaleOut, policy.scaleIn)) ctx.addIssue(issue);
  });

/**
 * A scale-in threshold at or above the scale-out threshold of the same metric
 * lets both rules hold at once and the fleet oscillates.
 */
function flappingIssues(scaleOut: ScalingRule, scaleIn: ScalingRule) {
  return scaleIn.conditions.flatMap((inCondition, index) => {
    if (!isBelow(inCondition.comparison)) return [];
    const outCondition = scaleOut.conditions.find(
      (c) => c.metric === inCondition.metric && !isBelow(c.comparison),
    );
    if (outCondition === undefined || inCondition.threshold < outCondition.threshold) return [];
    return [
      {
        code: 'custom' as const,
        path: ['scaleIn', 'conditions', index, 'threshold'],
        message: `must be below the scaleOut threshold ${outCondition.threshold} for ${inCondition.metric} (got ${inCondition.threshold}), or the fleet flaps`,
      },
    ];
  });
}

function isBelow(comparison: Comparison): boolean {
  return comparison === '<' || comparison === '<=';
}

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

/** Validates a policy (e.g. from the API or a config file) and fills in the defaults. */
export function parseScalingPolicy(input: unknown): ScalingPolicy {
  const parsed = scalingPolicySchema.safeParse(input);
  if (parsed.success) return parsed.data;
  throw new InvalidScalingPolicyError(
    parsed.error.issues.map((issue) => ({ path: issue.path.join('.'), message: issue.message })),
  );
}
