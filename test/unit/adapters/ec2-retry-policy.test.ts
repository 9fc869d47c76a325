import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { EC2Client } from '@aws-sdk/client-ec2';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Ec2Compute } from '../../../shared/adapters/ec2-compute';
import { EC2_RETRY } from '../../../shared/lambda/clients';
import { ComputeThrottledError } from '../../../shared/ports/compute';

// EC2 answering every request with RequestLimitExceeded, as it does when an account is throttled.
const THROTTLED = `<?xml version="1.0" encoding="UTF-8"?>
<Response><Errors><Error><Code>RequestLimitExceeded</Code><Message>Request limit exceeded.</Message></Error></Errors><RequestID>r-1</RequestID></Response>`;

let server: Server;
let requests = 0;
let endpoint = '';

beforeAll(async () => {
  server = createServer((request, response) => {
    requests += 1;
    request.resume();
    request.on('end', () => {
      response.writeHead(503, { 'content-type': 'text/xml' });
      response.end(THROTTLED);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe('one retry policy per EC2 call', () => {
  it('makes exactly EC2_RETRY.maxAttempts requests for a throttled call, then a typed error', async () => {
    const client = new EC2Client({
      region: 'us-east-1',
      endpoint,
      credentials: { accessKeyId: 'test', secretAccessKey: 'test' },
      ...EC2_RETRY,
    });
    const compute = new Ec2Compute({ regions: ['us-east-1'], fleetName: 'fleet-x', clientFor: () => client });
    requests = 0;
    const failure = await compute.managedInstances().catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ComputeThrottledError);
    expect(failure).toMatchObject({ code: 'RequestLimitExceeded', attempts: EC2_RETRY.maxAttempts });
    expect(requests).toBe(EC2_RETRY.maxAttempts);
    expect(EC2_RETRY.maxAttempts).toBe(5);
  }, 60_000);
});
