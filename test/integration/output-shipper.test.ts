/**
 * The local SSM agent's output shipper against moto's CloudWatch Logs: lines
 * reach their stream while the command runs, whole lines only until it ends,
 * each once and in order, and a send that failed is sent again.
 */
import { randomUUID } from 'node:crypto';
import {
  CloudWatchLogsClient,
  CreateLogGroupCommand,
  GetLogEventsCommand,
  ResourceNotFoundException,
} from '@aws-sdk/client-cloudwatch-logs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { outputShipper } from '../../local/runtime/output-shipper';
import { emulatorEndpoints } from '../support/emulators';

let logs: CloudWatchLogsClient;

beforeAll(() => {
  logs = new CloudWatchLogsClient({
    endpoint: emulatorEndpoints().events,
    region: 'us-east-1',
    credentials: { accessKeyId: 'test', secretAccessKey: 'test' },
  });
});

afterAll(() => logs.destroy());

async function lines(logGroupName: string, logStreamName: string): Promise<string[]> {
  const page = await logs.send(new GetLogEventsCommand({ logGroupName, logStreamName, startFromHead: true }));
  return (page.events ?? []).map((event) => event.message ?? '');
}

describe('the local agent ships task output as it is written', () => {
  it('sends whole lines while running, the cut line and the rest at the end, each line once', async () => {
    const group = `/test/output-${randomUUID()}`;
    await logs.send(new CreateLogGroupCommand({ logGroupName: group }));
    const stdout: string[] = [];
    const stderr: string[] = [];
    const shipper = outputShipper(logs, group, [
      { logStreamName: 'out', chunks: stdout },
      { logStreamName: 'err', chunks: stderr },
    ]);

    stdout.push('epoch 1 loss 0.9\nepoch 2 ', 'loss 0.7\nepoch 3');
    await shipper.ship(false);
    expect(await lines(group, 'out')).toEqual(['epoch 1 loss 0.9', 'epoch 2 loss 0.7']);
    // Nothing written to stderr yet: its stream does not exist, as SSM creates it at the first line.
    await expect(lines(group, 'err')).rejects.toBeInstanceOf(ResourceNotFoundException);

    stdout.push(' loss 0.5\n');
    stderr.push('warning: low memory\n');
    await Promise.all([shipper.ship(false), shipper.ship(false)]);
    expect(await lines(group, 'out')).toEqual(['epoch 1 loss 0.9', 'epoch 2 loss 0.7', 'epoch 3 loss 0.5']);
    expect(await lines(group, 'err')).toEqual(['warning: low memory']);

    stdout.push('done, no newline');
    await shipper.ship(false);
    expect(await lines(group, 'out')).toHaveLength(3);
    await shipper.ship(true);
    expect(await lines(group, 'out')).toEqual([
      'epoch 1 loss 0.9',
      'epoch 2 loss 0.7',
      'epoch 3 loss 0.5',
      'done, no newline',
    ]);
  });

  it('sends again what a failed send carried: no line lost, none twice', async () => {
    const group = `/test/output-${randomUUID()}`;
    const stdout = ['first\n'];
    const shipper = outputShipper(logs, group, [{ logStreamName: 'out', chunks: stdout }]);
    // The group does not exist yet: the send fails and is reported to its caller.
    await expect(shipper.ship(false)).rejects.toBeInstanceOf(ResourceNotFoundException);
    await logs.send(new CreateLogGroupCommand({ logGroupName: group }));
    stdout.push('second\n');
    await shipper.ship(true);
    expect(await lines(group, 'out')).toEqual(['first', 'second']);
  });
});
