/**
 * `npm run spot-warning -- <instance-id> [region]`: against the stack `npm start`
 * runs, puts an EC2 Spot Instance Interruption Warning for the instance on
 * moto's default bus (region default us-east-1; any GPU region works, its rule
 * forwards to the home region). The interruption handler marks the lease
 * INTERRUPTED and queues the replacement, which launches two minutes later.
 */
import { readFileSync } from 'node:fs';
import { putSpotWarning } from '../local/ec2-events';

const [instanceId, region = 'us-east-1'] = process.argv.slice(2);
if (!instanceId?.startsWith('i-')) {
  console.error('Usage: npm run spot-warning -- <instance-id> [region]');
  process.exit(2);
}
const manifest = JSON.parse(readFileSync('.gpurent/local.json', 'utf8')) as { endpoints: { events: string } };
await putSpotWarning(manifest.endpoints.events, region, instanceId);
console.log(`Spot interruption warning for ${instanceId} put on the default bus of ${region}.`);
