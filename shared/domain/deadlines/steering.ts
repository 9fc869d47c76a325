import type { RentalMode } from '../lease';
import type { DeadlineAction, JobPlacement, StoredDecision } from './policy-input';

/**
 * How often the schedule asks the policy about every open job: the policy's
 * tick, so its safety margin (one look may come this much later than the last).
 */
export const DEADLINE_SCHEDULE_MINUTES = 2;
export const DEADLINE_DECISION_INTERVAL_MS = DEADLINE_SCHEDULE_MINUTES * 60_000;

/** Where a launch must go: the region, and for spot the zone, the decision named. */
export interface PoolPin {
  readonly region: string;
  readonly zone?: string | undefined;
}

/** A launch that follows the decision: its mode, the fallback when the pool refuses, and the pin. */
export interface SteeredLaunch {
  readonly mode: Extract<RentalMode, 'spot' | 'on-demand'>;
  readonly fallback: RentalMode | null;
  readonly reason: string;
  readonly pin: PoolPin;
}

/**
 * How to launch on the decision, or null when it says wait. Spot goes to the
 * named pool, falling back to on-demand in the same region if that pool
 * refuses (on-demand is what keeps the deadline); on-demand goes to the
 * named region and falls back to nothing.
 */
export function steeredLaunch(decision: StoredDecision): SteeredLaunch | null {
  const { action } = decision;
  const reason = `deadline policy: ${decision.reason}`;
  switch (action.kind) {
    case 'wait':
      return null;
    case 'spot':
      return {
        mode: 'spot',
        fallback: 'on-demand',
        reason,
        pin: { region: action.region, zone: action.zone },
      };
    case 'on-demand':
      return { mode: 'on-demand', fallback: null, reason, pin: { region: action.region } };
  }
}

/**
 * Whether a running job already is where the action puts it. Wait counts as
 * followed: stopping a running job to wait only buys another restart.
 */
export function isFollowed(placement: JobPlacement, action: DeadlineAction): boolean {
  switch (action.kind) {
    case 'wait':
      return true;
    case 'spot':
      return placement.kind === 'spot' && placement.zone === action.zone;
    case 'on-demand':
      return placement.kind === 'on-demand' && placement.region === action.region;
  }
}
