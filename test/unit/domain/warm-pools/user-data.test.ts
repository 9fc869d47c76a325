import { describe, expect, it } from 'vitest';
import { gpuTelemetryCommands } from '../../../../shared/domain/gpu-telemetry-agent';
import { warmMachineUserData } from '../../../../shared/domain/warm-pools/user-data';

const script = warmMachineUserData({
  imageVersion: 'gpu-base:v7',
  prePull: ['ghcr.io/acme/trainer:1.4', 'pytorch/pytorch:2.4.0-cuda12.1-cudnn9-runtime'],
});
const lines = script.split('\n');
const at = (pattern: RegExp) => lines.findIndex((line) => pattern.test(line));

describe('warmMachineUserData', () => {
  it('is a bash script that stops at the first failure, so a machine that did not initialise never says ready', () => {
    expect(lines[0]).toBe('#!/bin/bash');
    expect(at(/^set -euo pipefail$/)).toBeGreaterThan(0);
  });

  it('starts the GPU telemetry agent as the launch template user data it replaces does', () => {
    const preamble = ['#!/bin/bash', ...gpuTelemetryCommands()].join('\n');
    expect(script.slice(0, preamble.length + 1)).toBe(`${preamble}\n`);
  });

  it('pulls every pre-pull image, quoted, after the SSM agent and the NVIDIA driver answer', () => {
    const ssm = at(/systemctl is-active --quiet snap\.amazon-ssm-agent/);
    const driver = at(/^until nvidia-smi/);
    const pulls = lines.filter((line) => line.startsWith('docker pull '));
    expect(pulls).toEqual([
      "docker pull 'ghcr.io/acme/trainer:1.4'",
      "docker pull 'pytorch/pytorch:2.4.0-cuda12.1-cudnn9-runtime'",
    ]);
    expect(ssm).toBeGreaterThan(0);
    expect(driver).toBeGreaterThan(ssm);
    expect(at(/^docker pull /)).toBeGreaterThan(driver);
  });

  it('tags the instance itself gpurent:warm-ready=<image version> last, through IMDSv2', () => {
    const tagLine = lines.findLast((line) => line.trim() !== '') ?? '';
    expect(tagLine).toContain('aws ec2 create-tags');
    expect(tagLine).toContain('--resources "$(imds instance-id)"');
    expect(tagLine).toContain('--region "$(imds placement/region)"');
    expect(tagLine).toContain("--tags 'Key=gpurent:warm-ready,Value=gpu-base:v7'");
    expect(at(/api\/token -H 'X-aws-ec2-metadata-token-ttl-seconds/)).toBeGreaterThan(at(/^docker pull /));
  });

  it('with nothing to pre-pull, pulls nothing and still signals', () => {
    const bare = warmMachineUserData({ imageVersion: 'gpu:v1', prePull: [] });
    expect(bare).not.toContain('docker pull');
    expect(bare).toContain("Value=gpu:v1'");
  });
});
