import { DynamoDbDeadlineJobs, DynamoDbOpenDeadlineJobs } from '../adapters/dynamodb-deadline-jobs';
import { DynamoDbLeaseRepository } from '../adapters/dynamodb-lease-repository';
import { S3CheckpointProgress } from '../adapters/s3-checkpoint-progress';
import { StsScopedCredentials } from '../adapters/sts-scoped-credentials';
import { priceCatalog } from '../catalog';
import { nonEmpty } from '../config';
import type { DeadlineJobs, OpenDeadlineJobs } from '../ports/deadline-jobs';
import { BUCKETS, LEASE_MACHINE_ROLE, TABLES } from '../resources';
import { stsClient } from './clients';
import { gpuRegions, regionsEnv } from './placement';
import { portFactory } from './port-factory';

/**
 * Jobs with deadlines: the lease with its task's progress, read from the
 * checkpoint bucket through the checkpoint role narrowed to the lease's
 * prefix and to reads; decisions written beside the lease.
 */
export const deadlineJobs = () =>
  portFactory({
    env: {
      ...regionsEnv,
      [TABLES.leases.envVar]: nonEmpty,
      [BUCKETS.checkpoints.envVar]: nonEmpty,
      [LEASE_MACHINE_ROLE.envVar]: nonEmpty,
    },
    reaches: [
      { kind: 'table', table: 'leases', access: 'readWrite' },
      { kind: 'leaseMachineRole' },
      { kind: 'gpuRegions' },
    ],
    create: (env, clients): DeadlineJobs =>
      new DynamoDbDeadlineJobs(clients.documents, env.LEASES_TABLE_NAME, {
        leases: new DynamoDbLeaseRepository(clients.documents, env.LEASES_TABLE_NAME),
        progress: new S3CheckpointProgress(
          env.CHECKPOINT_BUCKET_NAME,
          new StsScopedCredentials(stsClient(clients), env.LEASE_MACHINE_ROLE_ARN),
        ),
        catalog: priceCatalog,
        regions: gpuRegions(env),
        homeRegion: env.AWS_REGION,
      }),
  });

/** The leases the deadline schedule asks about: the leases table's sparse index, read only. */
export const openDeadlineJobs = () =>
  portFactory({
    env: { [TABLES.leases.envVar]: nonEmpty },
    reaches: [{ kind: 'table', table: 'leases', access: 'read' }],
    create: (env, clients): OpenDeadlineJobs =>
      new DynamoDbOpenDeadlineJobs(clients.documents, env.LEASES_TABLE_NAME),
  });
