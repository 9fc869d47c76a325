import { describe, expect, it } from 'vitest';
import { priceCatalog } from '../../shared/catalog';
import { historyKey } from '../../shared/domain/admission/duration-history';
import { DEFAULT_QUOTA } from '../../shared/domain/admission/quota';
import { runAdmissionPass } from '../../shared/usecases/admission/admission-pass';
import { recordHeldDuration } from '../../shared/usecases/admission/lease-durations';
import { localDynamoDb } from '../support/admission';
import { emulatorEndpoints } from '../support/emulators';
import { NOW, waiting } from '../unit/domain/admission/fixtures';

const MINUTE = 60_000;
const KEY = historyKey('acme', 'training');

describe('the history of lease durations on DynamoDB Local', () => {
  const dynamo = localDynamoDb(emulatorEndpoints().dynamodb);

  it('records a released admission once, however often its release is recorded, racing ones each once', async () => {
    const store = await dynamo.freshAdmissionStore();
    const leases = [
      ...Array.from({ length: 4 }, () => waiting('acme', 1)),
      waiting('globex', 1, { workload: 'batch' }),
    ];
    for (const lease of leases) await store.enqueue(lease);
    const deps = { admission: store, catalog: priceCatalog, defaultQuota: DEFAULT_QUOTA, now: () => NOW };
    expect((await runAdmissionPass(deps)).admitted).toHaveLength(5);

    const released = await Promise.all(leases.map((lease) => store.release(lease.leaseId)));
    const at = (minutes: number) => ({ admission: store, now: () => NOW + minutes * MINUTE });
    // Each release recorded twice at once, and acme's four leases racing for the same window.
    await Promise.all(
      released.flatMap((claim, i) => [
        recordHeldDuration(at(10 * (i + 1)), claim),
        recordHeldDuration(at(10 * (i + 1)), claim),
      ]),
    );
    await recordHeldDuration(at(99), released[0]);

    const history = await store.durations();
    expect(history.byTenantWorkload[KEY]).toEqual([10, 20, 30, 40].map((m) => m * MINUTE));
    expect(history.byTenantWorkload[historyKey('globex', 'batch')]).toEqual([50 * MINUTE]);
    expect(history.byWorkload).toEqual({
      training: [10, 20, 30, 40].map((m) => m * MINUTE),
      batch: [50 * MINUTE],
    });
    // A lease admission never knew is not recorded.
    expect(
      await store.recordDuration({
        leaseId: 'lease-unknown',
        tenantId: 'acme',
        workload: 'training',
        durationMs: 1,
      }),
    ).toBe(false);
  });
});
