import { randomBytes } from 'node:crypto';
import {
  DeleteRuleCommand,
  EventBridgeClient,
  ListRulesCommand,
  RemoveTargetsCommand,
} from '@aws-sdk/client-eventbridge';
import { inject } from 'vitest';
import { LOCAL_GPU_REGIONS } from '../../local/bootstrap';
import { prepareFunctionEnvironment } from '../../local/environment';
import { EC2_EVENTS_RULE } from '../../shared/resources';

export const REGION = 'us-east-1';

/**
 * Creates a fresh set of tables, queues, topics, bus and launch template on the
 * shared emulators and points this test file's process at them. Handlers read
 * their configuration at import, so import them after this.
 */
export async function useFreshResources(): Promise<Record<string, string>> {
  await removeEarlierEc2EventRules();
  const prefix = `t${randomBytes(4).toString('hex')}`;
  const env = await prepareFunctionEnvironment(inject('endpoints'), REGION, prefix);
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

/** The names useFreshResources gives a test file's EC2 events rules. */
const TEST_RULE = new RegExp(`^t[0-9a-f]{8}-${EC2_EVENTS_RULE.id}$`);

/**
 * Integration files run one at a time on one set of emulators, so the EC2
 * events rules of earlier files are leftovers. Left in place, every GPU
 * region's forwarding rule copies each event to the home bus once per earlier
 * file, and each copy reaches every file's queue: the events of a late file
 * arrive many times over, and moto slows with the square of the files.
 */
async function removeEarlierEc2EventRules(): Promise<void> {
  for (const region of LOCAL_GPU_REGIONS) {
    const events = new EventBridgeClient({
      endpoint: inject('endpoints').events,
      region,
      credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    });
    try {
      const { Rules = [] } = await events.send(new ListRulesCommand({ NamePrefix: 't' }));
      for (const rule of Rules.filter((r) => TEST_RULE.test(r.Name ?? ''))) {
        await events.send(new RemoveTargetsCommand({ Rule: rule.Name, Ids: ['ec2-events'] }));
        await events.send(new DeleteRuleCommand({ Name: rule.Name }));
      }
    } finally {
      events.destroy();
    }
  }
}
