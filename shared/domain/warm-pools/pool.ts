/** A pool's name: safe in keys, tags and paths. */
export const WARM_POOL_NAME_PATTERN = /^[a-z0-9][a-z0-9-]{0,62}$/;
export const MAX_WARM_POOL_SIZE = 100;
/** The fleet tag a warm machine carries with its pool's name until a lease takes it. */
export const WARM_POOL_TAG = 'gpurent:warm-pool';
/** The image version (`name:version`) a warm machine was built from. */
export const WARM_IMAGE_TAG = 'gpurent:warm-image';
/** Set by the instance itself (its user data, user-data.ts) to the image version it initialised from, once the agent, drivers and pre-pulled images are in place. */
export const WARM_READY_TAG = 'gpurent:warm-ready';
/** The pre-pull list, space-separated, for people looking at the instance (its user data pulls them; a tag value holds 256 characters). */
export const WARM_PREPULL_TAG = 'gpurent:prepull';
export const MAX_PREPULL_TAG_LENGTH = 256;

/**
 * A container image reference as Docker parses it: optional registry host
 * (with port), lowercase path components, then a tag and/or a sha256 digest.
 */
export const IMAGE_REFERENCE_PATTERN =
  /^(?:[a-zA-Z0-9.-]+(?::\d+)?\/)?[a-z0-9]+(?:[._-][a-z0-9]+)*(?:\/[a-z0-9]+(?:[._-][a-z0-9]+)*)*(?::[\w][\w.-]{0,127})?(?:@sha256:[a-f0-9]{64})?$/;

/** Stopped machines kept ready in one pool: where, of what type, from which image. */
export interface WarmPoolSpec {
  readonly name: string;
  readonly region: string;
  /** A zone of the region, or undefined: any zone the fleet has subnets in. */
  readonly zone?: string | undefined;
  readonly instanceType: string;
  readonly size: number;
  /** `name` (follows the image's current version, so a promotion or rollback rebuilds) or `name:version` (pinned). */
  readonly image: string;
  /** Container images pulled while the machine initialises, so tasks start without a pull. */
  readonly prePull: readonly string[];
}

export interface WarmPool extends WarmPoolSpec {
  readonly createdAtMs: number;
  readonly updatedAtMs: number;
}

/** The tag value carrying the pre-pull list (the caller checks it fits). */
export const prePullTagValue = (prePull: readonly string[]): string => prePull.join(' ');
