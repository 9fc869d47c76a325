import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  MOTO_UNSUPPORTED_RESOURCE_TYPES,
  type RehearsalResult,
  rehearseDeploy,
} from '../../local/deploy-rehearsal';
import { startMoto } from '../../local/emulators/moto';
import { freePort, type ManagedProcess } from '../../local/emulators/processes';
import { QUEUES, TABLES } from '../../shared/resources';

// Its own moto_server: the rehearsal creates a VPC, tables and queues under fixed
// names that must not meet the other tests' resources on the shared emulators.
let moto: ManagedProcess;
let result: RehearsalResult;

beforeAll(async () => {
  const port = await freePort();
  moto = await startMoto(port);
  result = await rehearseDeploy(`http://127.0.0.1:${port}`);
}, 240_000);

afterAll(() => moto?.stop());

describe('deploy rehearsal into moto CloudFormation (npm run deploy:rehearse)', () => {
  it('creates the stack', () => {
    expect(result.stackStatus).toBe('CREATE_COMPLETE');
  });

  it('creates the stateful core and every function', () => {
    expect(result.created).toMatchObject({
      'AWS::DynamoDB::Table': Object.keys(TABLES).length,
      'AWS::SQS::Queue': 2 * Object.keys(QUEUES).length,
      'AWS::SNS::Topic': 2,
      'AWS::Events::EventBus': 1,
      'AWS::EC2::LaunchTemplate': 1,
      'AWS::Lambda::Function': expect.any(Number),
    });
  });

  it('leaves out only the resource types known (with a reason) to be beyond moto: the list cannot grow unnoticed', () => {
    expect(result.notCreated).toEqual(Object.keys(MOTO_UNSUPPORTED_RESOURCE_TYPES).sort());
  });
});
