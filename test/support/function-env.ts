import { randomBytes } from 'node:crypto';
import { inject } from 'vitest';
import { prepareFunctionEnvironment } from '../../local/environment';

export const REGION = 'us-east-1';

/**
 * Creates a fresh set of tables, queues, topics, bus and launch template on the
 * shared emulators and points this test file's process at them. Handlers read
 * their configuration at import, so import them after this.
 */
export async function useFreshResources(): Promise<Record<string, string>> {
  const prefix = `t${randomBytes(4).toString('hex')}`;
  const env = await prepareFunctionEnvironment(inject('endpoints'), REGION, prefix);
  Object.assign(process.env, env);
  return env;
}

/** The lease repository and ledger over the resources `useFreshResources` made, for tests to look behind handlers. */
export async function storesOf(env: Record<string, string>) {
  // Imported after the environment is set: Powertools reads its settings at import.
  const { createStores } = await import('../../shared/lambda/stores');
  return createStores({
    LEASES_TABLE_NAME: env.LEASES_TABLE_NAME ?? '',
    USAGE_TABLE_NAME: env.USAGE_TABLE_NAME ?? '',
    SPEND_TABLE_NAME: env.SPEND_TABLE_NAME ?? '',
  });
}
