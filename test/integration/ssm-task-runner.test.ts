/**
 * The SSM adapter on moto: a sender taking over an abandoned claim finds the
 * command sent for the attempt by its comment, and no other. moto lists a
 * command sent to one instance as sent to every instance of the region, so
 * the comment, not the instance filter, is what tells attempts apart.
 */
import { SSMClient } from '@aws-sdk/client-ssm';
import { beforeAll, describe, expect, it } from 'vitest';
import { SsmTaskRunner } from '../../shared/adapters/ssm-task-runner';
import { attemptComment } from '../../shared/domain/tasks/attempt-command';
import { startHarness } from '../support/harness';

beforeAll(async () => {
  // The harness points the SDK at this stream's emulators.
  await startHarness();
});

describe('the SSM task runner', () => {
  it("finds an attempt's command by its comment on the instance, and nothing for an attempt never sent", async () => {
    const region = 'us-east-1';
    const runner = new SsmTaskRunner(() => new SSMClient({ region }));
    const a = { instanceId: 'i-0aaaaaaaaaaaaaaa1', region };
    const b = { instanceId: 'i-0bbbbbbbbbbbbbbb2', region };
    const suffix = Date.now().toString(36);
    const sentA = await runner.send(a, ['echo a'], 60, attemptComment(`lease_a${suffix}`, 1));
    const sentB = await runner.send(b, ['echo b'], 60, attemptComment(`lease_b${suffix}`, 1));
    expect(sentA).not.toBe(sentB);

    expect(await runner.sentWith(a, attemptComment(`lease_a${suffix}`, 1))).toBe(sentA);
    expect(await runner.sentWith(b, attemptComment(`lease_b${suffix}`, 1))).toBe(sentB);
    expect(await runner.sentWith(a, attemptComment(`lease_a${suffix}`, 2))).toBeUndefined();
  });
});
