import { describe, expect, it } from 'vitest';
import { taskLogStreams } from '../../../shared/domain/tasks/log-streams';
import { maskedEnv } from '../../../shared/domain/tasks/masking';
import { taskScript } from '../../../shared/domain/tasks/script';
import { secretsOutsidePrefix, taskSpecSchema } from '../../../shared/domain/tasks/spec';
import * as z from '../../../shared/zod';

const context = { tenantId: 't1', attempt: 2, checkpointUri: 's3://b/t1/l1/', runtime: 'container' as const };

describe('the task script', () => {
  it('runs the image with docker --gpus all, env, secrets resolved on the instance, workdir and timeout', () => {
    const spec = z.parse(taskSpecSchema, {
      image: '123456789012.dkr.ecr.us-east-1.amazonaws.com/train:v3',
      command: ['python', 'train.py', "--lr=it's"],
      env: { LR: '0.1' },
      secrets: { HF_TOKEN: '/gpurent/t1/hf', DB: 'gpurent/t1/db' },
      workdir: '/workspace',
      maxRuntimeMinutes: 2,
    });
    const script = taskScript(spec, context).join('\n');
    expect(script).toContain("export LR='0.1'");
    expect(script).toContain("export GPURENT_ATTEMPT='2'");
    expect(script).toContain("export GPURENT_CHECKPOINT_URI='s3://b/t1/l1/'");
    expect(script).toContain("aws ssm get-parameter --with-decryption --name '/gpurent/t1/hf'");
    expect(script).toContain("aws secretsmanager get-secret-value --secret-id 'gpurent/t1/db'");
    expect(script).toContain(
      "timeout 120s docker run --rm --gpus all -e LR -e GPURENT_ATTEMPT -e GPURENT_CHECKPOINT_URI -e HF_TOKEN -e DB -w '/workspace' '123456789012.dkr.ecr.us-east-1.amazonaws.com/train:v3'",
    );
    expect(script).toContain(`'python' 'train.py' '--lr=it'"'"'s'`);
  });

  it("logs Docker in to an ECR image's registry with the lease's credentials, after its profile is exported", () => {
    const spec = z.parse(taskSpecSchema, {
      image: '123456789012.dkr.ecr.eu-west-1.amazonaws.com/gpurent/t1/train:v3',
      command: ['python', 'train.py'],
    });
    const credentials = { accessKeyId: 'ASIA1', secretAccessKey: 's', sessionToken: 't', expiresAtMs: 0 };
    const lines = taskScript(spec, { ...context, machineAccess: { leaseId: 'lease_1', credentials } });
    const login = lines.findIndex((line) => line.includes('docker login'));
    expect(lines[login]).toBe(
      "aws ecr get-login-password --region 'eu-west-1' | docker login --username AWS --password-stdin '123456789012.dkr.ecr.eu-west-1.amazonaws.com'",
    );
    expect(login).toBeGreaterThan(lines.findIndex((line) => line.startsWith('export AWS_PROFILE=')));
    // Another registry's image needs no login.
    const hub = z.parse(taskSpecSchema, { image: 'python:3.12-slim', command: ['python', '-V'] });
    expect(
      taskScript(hub, { ...context, machineAccess: { leaseId: 'lease_1', credentials } }).join('\n'),
    ).not.toContain('docker login');
  });

  it("runs the image on the local stand-in's engine without --gpus when it has no NVIDIA runtime, its folder mounted, by name", () => {
    const spec = z.parse(taskSpecSchema, {
      image: 'python:3.12-slim',
      command: ['python', '-V'],
      workdir: '/app',
    });
    const local = { gpus: false, mounts: ['/tmp/run 1/checkpoints'], containerName: 'gpurent-c1-i-1' };
    const line = taskScript(spec, { ...context, localEngine: local }).at(-1);
    expect(line).toBe(
      "docker run --rm --name 'gpurent-c1-i-1' -e GPURENT_ATTEMPT -e GPURENT_CHECKPOINT_URI -v '/tmp/run 1/checkpoints:/tmp/run 1/checkpoints' -w '/app' 'python:3.12-slim' 'python' '-V'",
    );
    const withGpus = taskScript(spec, { ...context, localEngine: { ...local, gpus: true } }).at(-1);
    expect(withGpus).toContain("--name 'gpurent-c1-i-1' --gpus all -e");
  });

  it('runs the bare command on the machine without an image', () => {
    const spec = z.parse(taskSpecSchema, { command: 'echo hi' });
    const script = taskScript(spec, context);
    expect(script.at(-1)).toBe("/bin/sh -c 'echo hi'");
    expect(script.join('\n')).not.toContain('docker');
  });

  it("names log streams under the lease's own prefix and masks secret-looking env values", () => {
    expect(taskLogStreams('lease_01jdz3n5x8k2m4p6q8r0s2t4v6', 2)).toEqual({
      stdout: 'lease_01jdz3n5x8k2m4p6q8r0s2t4v6/attempt-2/stdout',
      stderr: 'lease_01jdz3n5x8k2m4p6q8r0s2t4v6/attempt-2/stderr',
    });
    expect(maskedEnv({ API_KEY: 'x', DB_PASSWORD: 'y', LR: '0.1' })).toEqual({
      API_KEY: '****',
      DB_PASSWORD: '****',
      LR: '0.1',
    });
  });

  it('accepts secrets only under the tenant prefix', () => {
    expect(
      secretsOutsidePrefix(
        {
          secrets: {
            A: '/gpurent/t1/a',
            B: 'arn:aws:ssm:us-east-1:123456789012:parameter/gpurent/t1/b',
            C: 'arn:aws:secretsmanager:us-east-1:123456789012:secret:gpurent/t1/c-AbCdEf',
            D: '/gpurent/t2/d',
            E: 'gpurent/t2/e',
            F: '/other/t1/f',
          },
        },
        't1',
      ),
    ).toEqual(['D', 'E', 'F']);
  });
});
