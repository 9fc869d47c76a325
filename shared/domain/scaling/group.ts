import * as z from '../../zod';
import { type LeaseQueueState, type LeaseStatus, type RentalMode, WORKLOADS } from '../lease';
import { rulesIssues, rulesShape, type ScalingPolicy } from './policy';

/** Group names are part of the URL and of CloudWatch-friendly labels. */
export const GROUP_NAME_PATTERN = /^[a-z0-9][a-z0-9-]{0,62}$/;
/** The most GPUs one group may hold: a bound on what a mistyped policy can cost. */
export const MAX_GROUP_SIZE = 100;

const size = (what: string) =>
  z
    .int({ error: (issue) => (issue.input === undefined ? `is required: ${what}` : undefined) })
    .check(
      z.gte(0, 'must be 0 or more GPUs'),
      z.lte(MAX_GROUP_SIZE, `must be at most ${MAX_GROUP_SIZE} GPUs`),
    );

/**
 * What a tenant asks for with `PUT /v1/scaling-groups/{name}`: a fleet of
 * single-GPU leases of one instance type between `min` and `max`, starting at
 * `desired`, the first `onDemandBase` on-demand and the rest on spot when
 * `spotAboveBase`, scaled by the two rules.
 */
export const scalingGroupSpecSchema = z
  .strictObject({
    instanceType: z
      .string()
      .check(z.regex(/^[a-z0-9-]+\.[a-z0-9]+$/, 'must be an EC2 instance type such as g5.xlarge')),
    workload: z._default(z.enum(WORKLOADS), 'inference'),
    min: size('the fewest GPUs the group keeps'),
    max: size('the most GPUs the group may run, which caps its cost').check(
      z.refine((max: number) => max >= 1, 'must be at least 1 GPU'),
    ),
    /** Omitted on an update: the group keeps its current size (within the bounds). @default min */
    desired: z.optional(size('')),
    onDemandBase: z._default(size(''), 0),
    spotAboveBase: z._default(z.boolean(), false),
    ...rulesShape,
    /** A new member counts as booting this long: it is never removed and its metrics are not judged yet. */
    instanceWarmupSeconds: z._default(z.int().check(z.gte(0), z.lte(3600, 'must be at most 3600 s')), 300),
  })
  .check(
    z.superRefine((spec, ctx) => {
      if (spec.min > spec.max) {
        ctx.addIssue({
          code: 'custom',
          path: ['min'],
          message: `must not exceed max (${spec.min} > ${spec.max})`,
        });
      }
      if (spec.desired !== undefined && (spec.desired < spec.min || spec.desired > spec.max)) {
        ctx.addIssue({
          code: 'custom',
          path: ['desired'],
          message: `must be between min and max (${spec.min}-${spec.max}, got ${spec.desired})`,
        });
      }
      if (spec.spotAboveBase && spec.workload === 'inference') {
        ctx.addIssue({
          code: 'custom',
          path: ['spotAboveBase'],
          message: 'inference never runs on spot (a reclaim drops requests); use workload batch or training',
        });
      }
      for (const issue of rulesIssues(spec, spec.min, 'min')) ctx.addIssue({ code: 'custom', ...issue });
    }),
  );

export type ScalingGroupSpecInput = z.input<typeof scalingGroupSpecSchema>;
export type ScalingGroupSpec = z.output<typeof scalingGroupSpecSchema>;

/**
 * The size a group converges to after its spec is written: `desired` when the
 * spec names it, else the current size kept within the (new) bounds; a new
 * group without one starts at `min`.
 */
export function desiredAfterUpdate(spec: ScalingGroupSpec, current: number | undefined): number {
  if (spec.desired !== undefined) return spec.desired;
  return Math.min(spec.max, Math.max(spec.min, current ?? spec.min));
}

export function policyOf(spec: ScalingGroupSpec): ScalingPolicy {
  return {
    scaleOut: spec.scaleOut,
    scaleIn: spec.scaleIn,
    periodSeconds: 60,
    minCapacity: spec.min,
    maxCapacity: spec.max,
  };
}

/** A lease the group owns, as the evaluator sees it this minute. */
export interface GroupMember {
  readonly leaseId: string;
  readonly status: LeaseStatus;
  /** The mode the instances run in, or the one asked for while none runs yet. */
  readonly mode: RentalMode;
  readonly createdAtMs: number;
  /** The earliest instance launch; absent while nothing runs. */
  readonly launchedAtMs?: number | undefined;
  readonly instanceIds: readonly string[];
  /** While its lease waits for admission (QUEUED): why, its place and its estimated start. */
  readonly queue?: LeaseQueueState | undefined;
}

/**
 * A member that holds, or is on its way to, a GPU of the group. One QUEUED
 * waits for admission: capacity already asked for, not missing, so it is
 * never replaced (a group at its quota would otherwise add a member a minute).
 */
export const isLive = (member: GroupMember) =>
  member.status === 'PENDING' || member.status === 'QUEUED' || member.status === 'RUNNING';

export const isQueued = (member: GroupMember) => member.status === 'QUEUED';

/** Booting: not running yet, or running for less than the warm-up. Never removed, never judged. */
export function isBooting(member: GroupMember, warmupSeconds: number, nowMs: number): boolean {
  return (
    member.status !== 'RUNNING' ||
    member.launchedAtMs === undefined ||
    member.launchedAtMs + warmupSeconds * 1000 > nowMs
  );
}

/** Modes of `count` new members: on-demand up to the base, then spot if the group allows it. */
export function launchModes(
  spec: ScalingGroupSpec,
  live: readonly GroupMember[],
  count: number,
): RentalMode[] {
  let onDemand = live.filter((m) => m.mode !== 'spot').length;
  return Array.from({ length: count }, () => {
    if (onDemand < spec.onDemandBase || !spec.spotAboveBase) {
      onDemand += 1;
      return 'on-demand';
    }
    return 'spot';
  });
}

/**
 * Up to `count` members to release: those still waiting for admission first
 * (nothing of them runs yet), then spot ones (they sit above the on-demand
 * base), then the newest; never one still booting.
 */
export function scaleInOrder(
  spec: ScalingGroupSpec,
  live: readonly GroupMember[],
  count: number,
  nowMs: number,
): GroupMember[] {
  return live
    .filter((m) => isQueued(m) || !isBooting(m, spec.instanceWarmupSeconds, nowMs))
    .sort((a, b) => releaseRank(a) - releaseRank(b) || b.createdAtMs - a.createdAtMs)
    .slice(0, Math.max(0, count));
}

const releaseRank = (member: GroupMember) => (isQueued(member) ? 0 : member.mode === 'spot' ? 1 : 2);
