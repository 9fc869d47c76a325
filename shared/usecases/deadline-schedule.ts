import type { OpenDeadlineJobs } from '../ports/deadline-jobs';
import type { LeaseCommandQueue } from '../ports/lease-commands';

export interface DeadlineScheduleDeps {
  readonly openDeadlineJobs: OpenDeadlineJobs;
  readonly commands: LeaseCommandQueue;
}

/**
 * Every few minutes: one decide command per open job with a deadline, for the
 * lease worker, which decides and follows (launch, switch, resume). The
 * schedule's instant is in each command, so every look is one command, run once.
 */
export async function askOpenDeadlineJobs(deps: DeadlineScheduleDeps, atMs: number): Promise<number> {
  const jobs = await deps.openDeadlineJobs.list();
  for (const { tenantId, leaseId } of jobs) {
    await deps.commands.send({ type: 'decide', tenantId, leaseId, atMs });
  }
  return jobs.length;
}
