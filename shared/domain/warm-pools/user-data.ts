import { gpuTelemetryCommands } from '../gpu-telemetry-agent';
import { shellQuote } from '../tasks/shell';
import { WARM_READY_TAG } from './pool';

const IMDS = 'http://169.254.169.254/latest';

export interface WarmInit {
  /** `name:version` the machine is built from: the value of its ready tag. */
  readonly imageVersion: string;
  /** Container images pulled before the machine says it is ready. */
  readonly prePull: readonly string[];
}

/**
 * A warm machine's first-boot script. It replaces the launch template's user
 * data, so it starts the GPU telemetry agent first as every instance does;
 * then waits for the SSM agent (tasks arrive through it) and for the NVIDIA
 * driver (both on the Deep Learning AMI), pulls the pool's images, and only
 * then tags itself `gpurent:warm-ready=<imageVersion>`. Any failure stops the
 * script before the tag (`set -e`): the filler never stops such a machine and
 * replaces it after the init timeout. Cloud-init runs it on the first boot
 * only, so the lease's StartInstances does not repeat it.
 */
export function warmMachineUserData(init: WarmInit): string {
  return [
    '#!/bin/bash',
    ...gpuTelemetryCommands(),
    'until systemctl is-active --quiet snap.amazon-ssm-agent.amazon-ssm-agent.service || systemctl is-active --quiet amazon-ssm-agent; do sleep 5; done',
    'until nvidia-smi > /dev/null; do sleep 5; done',
    ...init.prePull.map((image) => `docker pull ${shellQuote(image)}`),
    `TOKEN=$(curl -fsS --retry 5 -X PUT ${IMDS}/api/token -H 'X-aws-ec2-metadata-token-ttl-seconds: 300')`,
    `imds() { curl -fsS --retry 5 -H "X-aws-ec2-metadata-token: $TOKEN" "${IMDS}/meta-data/$1"; }`,
    `aws ec2 create-tags --region "$(imds placement/region)" --resources "$(imds instance-id)" --tags ${shellQuote(
      `Key=${WARM_READY_TAG},Value=${init.imageVersion}`,
    )}`,
    '',
  ].join('\n');
}
