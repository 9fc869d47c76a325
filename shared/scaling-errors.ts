/** Errors the scaling-group use cases raise; the API maps each to an HTTP status and a code. */
export class ScalingGroupNotFoundError extends Error {
  constructor(readonly groupName: string) {
    super(`No scaling group ${groupName} for this tenant`);
    this.name = 'ScalingGroupNotFoundError';
  }
}

export class ScalingGroupDeletingError extends Error {
  constructor(readonly groupName: string) {
    super(`Scaling group ${groupName} is being deleted; PUT it again once DELETE has finished`);
    this.name = 'ScalingGroupDeletingError';
  }
}
