import { LeaseNotFoundError, LeaseNotRunningError } from '../errors';
import type { DomainEventPublisher } from '../ports/domain-events';
import type { LeaseRepository } from '../ports/lease-repository';
import type { ScopedCredentials, TemporaryCredentials } from '../ports/scoped-credentials';
import { leaseSessionPolicy, SESSION_DURATION_SECONDS, sessionNameOf } from './access-policies';

export interface LeaseSession {
  readonly credentials: TemporaryCredentials;
  readonly instances: readonly { readonly instanceId: string; readonly region: string }[];
}

/**
 * Credentials for Session Manager to the lease's live instances and nothing
 * else, for at most an hour; each one handed out is a LeaseSessionOpened event.
 */
export async function openLeaseSession(
  deps: {
    readonly leases: Pick<LeaseRepository, 'get'>;
    readonly sessions: ScopedCredentials;
    readonly events: DomainEventPublisher;
    readonly region: string;
  },
  tenantId: string,
  leaseId: string,
): Promise<LeaseSession> {
  const lease = await deps.leases.get(tenantId, leaseId);
  if (!lease) throw new LeaseNotFoundError(leaseId);
  const instances = lease.instances
    .filter((instance) => instance.endedAtMs === undefined)
    .map((instance) => ({ instanceId: instance.instanceId, region: instance.region ?? deps.region }));
  if (lease.status !== 'RUNNING' || instances.length === 0)
    throw new LeaseNotRunningError(leaseId, lease.status);
  const credentials = await deps.sessions.mint({
    sessionName: sessionNameOf(leaseId),
    policy: leaseSessionPolicy(tenantId, leaseId, instances),
    durationSeconds: SESSION_DURATION_SECONDS,
  });
  await deps.events.publish([
    {
      type: 'LeaseSessionOpened',
      tenantId,
      detail: {
        leaseId,
        instanceIds: instances.map((instance) => instance.instanceId),
        expiresAtMs: credentials.expiresAtMs,
      },
    },
  ]);
  return { credentials, instances };
}
