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
