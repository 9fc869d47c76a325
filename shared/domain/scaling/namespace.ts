import type { ScalingCondition, ScalingRule } from './policy';

/**
 * A tenant's own CloudWatch namespaces: `gpurent/<tenant>/…`. A `custom`
 * scaling condition may read only there. GetMetricData takes no resource or
 * namespace in IAM (no resource-level permissions, and the `cloudwatch:namespace`
 * condition key applies only to PutMetricData), so the evaluator's grant
 * cannot narrow to one tenant: the API refuses any other namespace, and the
 * evaluator reads none for groups stored before this rule (see
 * `planScalingMetrics`). Without it, a free group would read `CWAgent` (every
 * tenant's GPUs) or `AWS/*` and echo the values in its evaluation's reason.
 */
export const tenantMetricNamespacePrefix = (tenantId: string) => `gpurent/${tenantId}/`;

export const ownsNamespace = (tenantId: string, namespace: string) =>
  namespace.startsWith(tenantMetricNamespacePrefix(tenantId)) &&
  namespace.length > tenantMetricNamespacePrefix(tenantId).length;

export interface NamespaceIssue {
  /** Dotted path of the field, e.g. `scaleOut.conditions.0.namespace`. */
  readonly path: string;
  readonly namespace: string;
}

/** The custom conditions of both rules that read a namespace the tenant does not own. */
export function foreignNamespaces(
  rules: { readonly scaleOut: ScalingRule; readonly scaleIn: ScalingRule },
  tenantId: string,
): NamespaceIssue[] {
  return (['scaleOut', 'scaleIn'] as const).flatMap((rule) =>
    rules[rule].conditions.flatMap((condition: ScalingCondition, index) =>
      condition.metric === 'custom' && !ownsNamespace(tenantId, condition.namespace)
        ? [{ path: `${rule}.conditions.${index}.namespace`, namespace: condition.namespace }]
        : [],
    ),
  );
}
