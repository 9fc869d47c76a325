import { randomBytes } from 'node:crypto';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it, vi } from 'vitest';
import { createTable } from '../../local/bootstrap';
import { DynamoDbLeaseRepository } from '../../shared/adapters/dynamodb-lease-repository';
import type { Lease, LeaseInstance } from '../../shared/domain/lease';
import { newLeaseId } from '../../shared/ids';
import { TABLES } from '../../shared/resources';
import { localDynamoDb } from '../support/admission';
import { emulatorEndpoints } from '../support/emulators';

// GET /v1/leases read each listed lease's instances with a query of its own (26
// queries for a page of 25, issue #48). A page is a run of consecutive lease
// ids, so one key range holds exactly its instances.
const TENANT = 'list-tenant';
const NOW = Date.parse('2031-06-01T00:00:00Z');

function lease(atMs: number): Lease {
  return {
    tenantId: TENANT,
    leaseId: newLeaseId(atMs),
    workload: 'training',
    gpus: 1,
    instanceType: 'g5.xlarge',
    status: 'RUNNING',
    createdAtMs: atMs,
    updatedAtMs: atMs,
  } as Lease;
}

function instance(of: Lease, n: number): LeaseInstance {
  return {
    tenantId: TENANT,
    leaseId: of.leaseId,
    instanceId: `i-${of.leaseId.slice(-8)}${n}`,
    instanceType: 'g5.xlarge',
    mode: 'on-demand',
    region: 'us-east-1',
    priceMicroUsdPerHour: 1_006_000,
    launchedAtMs: of.createdAtMs,
    meteredUntilMs: of.createdAtMs,
    billedSeconds: 0,
    billedMicroUsd: 0,
    meteringOpen: true,
  } as LeaseInstance;
}

describe('listing leases with their instances', () => {
  it('gives every lease of a page its own instances, page by page, with one instance query a page', async () => {
    const dynamo = localDynamoDb(emulatorEndpoints().dynamodb);
    const table = `leases-${randomBytes(4).toString('hex')}`;
    await createTable(
      new DynamoDBClient({
        endpoint: emulatorEndpoints().dynamodb,
        region: 'us-east-1',
        credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
      }),
      table,
      TABLES.leases,
    );
    const repository = new DynamoDbLeaseRepository(dynamo.documents, table);
    // Seven leases; every other one has instances (two for the third), one has none.
    const leases = Array.from({ length: 7 }, (_, i) => lease(NOW + i * 1000));
    const expected = new Map<string, string[]>();
    for (const [i, each] of leases.entries()) {
      await repository.create(each);
      const instances = i % 2 === 0 ? [instance(each, 0), ...(i === 2 ? [instance(each, 1)] : [])] : [];
      await repository.recordInstances(instances);
      expected.set(
        each.leaseId,
        instances.map((x) => x.instanceId),
      );
    }
    const send = vi.spyOn(dynamo.documents, 'send');

    const seen = new Map<string, string[]>();
    let cursor: string | undefined;
    let pages = 0;
    do {
      const page = await repository.list(TENANT, 3, cursor);
      for (const listed of page.leases) {
        seen.set(listed.leaseId, listed.instances.map((x) => x.instanceId).sort());
      }
      cursor = page.nextCursor;
      pages += 1;
    } while (cursor);

    expect(seen).toEqual(new Map([...expected].map(([id, ids]) => [id, [...ids].sort()])));
    const queries = send.mock.calls.filter(([command]) => command instanceof QueryCommand);
    // Per page: the leases, then their instances (the last page may find no lease at all).
    expect(queries.length).toBeLessThanOrEqual(2 * pages);
    expect(pages).toBeGreaterThanOrEqual(3);
  });
});
