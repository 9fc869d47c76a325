import { randomBytes } from 'node:crypto';
import { prepareFunctionEnvironment } from '../../local/environment';
import { emulatorEndpoints } from './emulators';

export const REGION = 'us-east-1';

/**
 * Creates a fresh set of tables, queues, topics, bus and launch template on the
 * shared emulators and points this test file's process at them. Handlers read
 * their configuration at import, so import them after this.
 */
export async function useFreshResources(): Promise<Record<string, string>> {
  const prefix = `t${randomBytes(4).toString('hex')}`;
  const env = await prepareFunctionEnvironment(emulatorEndpoints(), REGION, prefix);
  Object.assign(process.env, env);
  return env;
}

/** The lease repository and ledger over the resources `useFreshResources` made, for tests to look behind handlers. */
export async function storesOf(env: Record<string, string>) {
  // Imported after the environment is set: Powertools reads its settings at import.
  const { Clients } = await import('../../shared/lambda/clients');
  const { buildPorts } = await import('../../shared/lambda/port-factory');
  const stores = await import('../../shared/lambda/stores');
  const clients = new Clients();
  const ports = buildPorts(
    {
      leases: stores.leaseRepository('readWrite'),
      ledger: stores.meteringLedger('readWrite'),
      spend: stores.spendCounters('readWrite'),
      spotPrices: stores.spotPriceHistory('readWrite'),
      images: stores.imageRepository('readWrite'),
      commitments: stores.commitmentRepository('readWrite'),
    },
    env,
    clients,
  );
  return { ...ports, documents: clients.documents };
}
