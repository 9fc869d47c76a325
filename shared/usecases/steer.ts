import type { StoredDecision } from '../domain/deadlines/policy-input';
import type { LeaseView } from '../domain/lease';
import type { DecisionTrigger } from '../ports/deadline-jobs';

/**
 * How a launch or a replacement asks where to go: a job with a deadline gets
 * its policy's decision (stored and sent), any other lease null, and goes the
 * usual way (the mode decision, planReclaim).
 */
export type Steer = (lease: LeaseView, trigger: DecisionTrigger) => Promise<StoredDecision | null>;

export const noSteering: Steer = async () => null;

/** A decision already made (the schedule's), followed as it is. */
export const following =
  (decision: StoredDecision): Steer =>
  async () =>
    decision;
