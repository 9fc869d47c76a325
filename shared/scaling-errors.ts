import { ClientError } from './client-error';
/** Errors the scaling-group use cases raise; each carries the HTTP status and code the API answers with. */
export class ScalingGroupNotFoundError extends ClientError {
  constructor(readonly groupName: string) {
    super(404, 'SCALING_GROUP_NOT_FOUND', `No scaling group ${groupName} for this tenant`);
    this.name = 'ScalingGroupNotFoundError';
  }
}

export class ScalingGroupDeletingError extends ClientError {
  constructor(readonly groupName: string) {
    super(
      409,
      'SCALING_GROUP_DELETING',
      `Scaling group ${groupName} is being deleted; PUT it again once DELETE has finished`,
    );
    this.name = 'ScalingGroupDeletingError';
  }
}

/** A `custom` condition names a CloudWatch namespace outside the tenant's own `gpurent/<tenant>/`. */
export class ForeignMetricNamespaceError extends ClientError {
  constructor(
    readonly prefix: string,
    issues: readonly { readonly path: string; readonly namespace: string }[],
  ) {
    const message = (namespace: string) =>
      `"${namespace}" is not one of the tenant's namespaces: a custom condition reads only metrics under ${prefix} (publish yours as ${prefix}<name>, e.g. ${prefix}queue)`;
    super(
      400,
      'METRIC_NAMESPACE_NOT_OWNED',
      issues.map((issue) => `${issue.path}: ${message(issue.namespace)}`).join('; '),
      issues[0]?.path,
      issues.map((issue) => ({ path: issue.path, message: message(issue.namespace) })),
    );
    this.name = 'ForeignMetricNamespaceError';
  }
}

/** Creating one more group would pass the tenant's cap on scaling groups. */
export class ScalingGroupCapError extends ClientError {
  constructor(readonly cap: number) {
    super(
      409,
      'SCALING_GROUP_CAP_REACHED',
      `The tenant has its cap of ${cap} scaling groups (maxScalingGroups); delete one, or ask an operator to raise the cap`,
      'maxScalingGroups',
    );
    this.name = 'ScalingGroupCapError';
  }
}
