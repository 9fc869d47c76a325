import { randomBytes } from 'node:crypto';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { createTable } from '../../local/bootstrap';
import { invoke } from '../../local/runtime/lambda-context';
import { DynamoDbAdmissionStore } from '../../shared/adapters/dynamodb-admission-store';
import { DynamoDbLeaseRepository } from '../../shared/adapters/dynamodb-lease-repository';
import { mapWithConcurrency } from '../../shared/concurrency';
import { TABLES } from '../../shared/resources';
import { admitQueued, waitingLeaseOf } from '../../shared/usecases/admission/queue';
import { setTenantQuota } from '../../shared/usecases/admission/quotas';
import { createLease } from '../../shared/usecases/create-lease';
import { provisionLease } from '../../shared/usecases/provision-lease';
import { fakeControlPlane } from '../../test/support/fakes/control-plane';
import type { SdkCallRecorder } from './sdk-calls';
import { round } from './stats';

/** How the work of admission grows with the queue: the queue lengths measured. */
export const QUEUE_LENGTHS = [10, 100, 1000, 2000] as const;
const GATES = 20;
const MEASURED = 'bench-gate-growth';
const BLOCKED = 'blocked-tenant';
const ARRIVING = 'arriving-tenant';
const INSTANCE_TYPE = 'g5.xlarge';
const arrival = (tenantId: string) =>
  ({ tenantId, workload: 'training', gpus: 1, maxWaitMinutes: 24 * 60 }) as const;
const NO_ROOM = { maxGpus: 0, maxHourlyMicroUsd: 0, maxGpusByMode: {}, weight: 1 };

export interface GateGrowth {
  readonly queued: number;
  /** Per lease that arrives while the queue is this long: the provisioner's gate, on DynamoDB Local. */
  readonly gateCallsPerLease: number;
  readonly gateMsPerLease: number;
  /** One wide pass (a release's, the schedule's) over the whole queue: it writes every waiting lease's place. */
  readonly passCalls: number;
  readonly passMs: number;
}

/**
 * The admission store and the lease repository on DynamoDB Local (fresh
 * tables per length), every other port an in-memory fake: GATES leases arrive one after another behind a queue
 * of N leases that cannot be admitted, as a burst of creates behind a backlog
 * does, and their gates' DynamoDB calls and time are recorded; then one wide
 * pass runs over the N + GATES waiting leases.
 */
export async function measureGateGrowth(endpoint: string, recorder: SdkCallRecorder): Promise<GateGrowth[]> {
  const client = new DynamoDBClient({ endpoint });
  const documents = DynamoDBDocumentClient.from(client, { marshallOptions: { removeUndefinedValues: true } });
  const figures: GateGrowth[] = [];
  for (const length of QUEUE_LENGTHS) {
    const suffix = randomBytes(4).toString('hex');
    await createTable(client, `gate-admission-${suffix}`, TABLES.admission);
    await createTable(client, `gate-leases-${suffix}`, TABLES.leases);
    const plane = {
      ...fakeControlPlane(),
      admission: new DynamoDbAdmissionStore(documents, `gate-admission-${suffix}`),
      leases: new DynamoDbLeaseRepository(documents, `gate-leases-${suffix}`),
    };
    await setTenantQuota(plane, BLOCKED, NO_ROOM);
    await setTenantQuota(plane, ARRIVING, NO_ROOM);
    await mapWithConcurrency(
      Array.from({ length }, (_, i) => i),
      16,
      async () => {
        // Queued as a gate queues it, without the gate's pass: the backlog is already there.
        await plane.admission.enqueue(
          waitingLeaseOf(plane, await createLease(plane, arrival(BLOCKED), INSTANCE_TYPE)),
        );
      },
    );
    // Counted apart from whatever else the process runs meanwhile (a stack's functions, its stand-ins).
    const ours = () => recorder.take().filter((call) => call.functionName === MEASURED).length;
    recorder.take();
    let started = performance.now();
    await invoke(MEASURED, 600_000, async () => {
      for (let i = 0; i < GATES; i++) {
        plane.clock.advance(100);
        const lease = await createLease(plane, arrival(ARRIVING), INSTANCE_TYPE);
        const outcome = await provisionLease(plane, ARRIVING, lease.leaseId);
        if (outcome !== 'queued') throw new Error(`a lease behind the queue was ${outcome}, not queued`);
      }
    });
    const gateMs = performance.now() - started;
    const gateCalls = ours();
    started = performance.now();
    await invoke(MEASURED, 600_000, () => admitQueued(plane));
    const passMs = performance.now() - started;
    const passCalls = ours();
    figures.push({
      queued: length,
      gateCallsPerLease: round(gateCalls / GATES, 1),
      gateMsPerLease: round(gateMs / GATES, 1),
      passCalls,
      passMs: round(passMs, 0),
    });
  }
  client.destroy();
  return figures;
}
