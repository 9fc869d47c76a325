import { GPU_METRIC_PERIOD_SECONDS, NVIDIA_SMI_METRICS } from './gpu-telemetry';
import { LEASE_MACHINE_PROFILE } from './tasks/lease-machine-access';
import { taskLogStreams } from './tasks/log-streams';
import { shellQuote } from './tasks/shell';

/** The agent substitutes the instance id for this placeholder on the instance. */
// biome-ignore lint/suspicious/noTemplateCurlyInString: the agent's own placeholder syntax, not a template literal
export const INSTANCE_ID_PLACEHOLDER = '${aws:InstanceId}';

/** The agent's measurement for a metric is its name without the plugin's prefix. */
const MEASUREMENT_PREFIX = 'nvidia_smi_';

const AGENT_DIR = '/opt/aws/amazon-cloudwatch-agent';
const AGENT_CTL = `${AGENT_DIR}/bin/amazon-cloudwatch-agent-ctl`;
/** The agent's own settings file: where its credentials come from. */
const COMMON_CONFIG = `${AGENT_DIR}/etc/common-config.toml`;
/** The agent's public package for Ubuntu (the Deep Learning Base AMI) on x86_64. */
const AGENT_PACKAGE =
  'https://amazoncloudwatch-agent.s3.amazonaws.com/ubuntu/amd64/latest/amazon-cloudwatch-agent.deb';

/**
 * CloudWatch agent configuration for GPU telemetry: the `nvidia_gpu` plugin's
 * utilization, memory, temperature and power every minute into the lease's
 * own namespace (`leaseMetricNamespace`, the only one its credentials may
 * write), with the instance id appended. The host name is omitted and the
 * series are also aggregated on exactly (InstanceId, index), so that readers
 * can name a GPU's series by those two dimensions without knowing the GPU
 * model name the plugin adds.
 */
export function cloudWatchAgentConfig(namespace: string) {
  return {
    agent: { metrics_collection_interval: GPU_METRIC_PERIOD_SECONDS, omit_hostname: true },
    metrics: {
      namespace,
      append_dimensions: { InstanceId: INSTANCE_ID_PLACEHOLDER },
      aggregation_dimensions: [['InstanceId', 'index']],
      metrics_collected: {
        nvidia_gpu: {
          measurement: Object.values(NVIDIA_SMI_METRICS).map((name) => name.slice(MEASUREMENT_PREFIX.length)),
          metrics_collection_interval: GPU_METRIC_PERIOD_SECONDS,
        },
      },
    },
  };
}

/**
 * First-boot shell commands: install the agent when the AMI lacks it, and
 * nothing more. It starts only once a lease's credentials are on the machine
 * (`leaseAgentLines`): the instance role may put no metrics anywhere, so an
 * agent started with it would only publish errors. Every instance runs them:
 * the launch template's user data, and a warm machine's (which replaces it).
 */
export function gpuTelemetryCommands(): string[] {
  return [
    'set -euo pipefail',
    `mkdir -p ${AGENT_DIR}/etc`,
    `if [ ! -x ${AGENT_CTL} ]; then`,
    `  curl -fsSL --retry 5 -o /tmp/amazon-cloudwatch-agent.deb ${AGENT_PACKAGE}`,
    '  dpkg -i -E /tmp/amazon-cloudwatch-agent.deb',
    'fi',
  ];
}

/** Where an attempt's output is written on the machine, for the agent to ship. */
export const attemptOutputFiles = (leaseDir: string, attempt: number) =>
  ({
    stdout: `${leaseDir}/attempt-${attempt}.stdout`,
    stderr: `${leaseDir}/attempt-${attempt}.stderr`,
  }) as const;

/**
 * The agent's log collection of one attempt: its two output files into the
 * lease's own streams of the task output group (`taskLogStreams`).
 */
export function attemptOutputConfig(leaseDir: string, leaseId: string, attempt: number, logGroup: string) {
  const files = attemptOutputFiles(leaseDir, attempt);
  const streams = taskLogStreams(leaseId, attempt);
  return {
    logs: {
      logs_collected: {
        files: {
          collect_list: (['stdout', 'stderr'] as const).map((output) => ({
            file_path: files[output],
            log_group_name: logGroup,
            log_stream_name: streams[output],
          })),
        },
      },
    },
  };
}

/** Lines that leave the attempt's output configuration where `leaseAgentLines` appends it. */
export function attemptOutputLines(leaseDir: string, leaseId: string, attempt: number, logGroup: string) {
  const config = JSON.stringify(attemptOutputConfig(leaseDir, leaseId, attempt, logGroup));
  return [`printf '%s' ${shellQuote(config)} > ${shellQuote(`${leaseDir}/output-${attempt}.json`)}`];
}

/**
 * Lines that (re)start the agent on the lease's credentials (the shared
 * credentials file `leaseMachineCredentialLines` writes) with the lease's
 * telemetry, and the output of each of its attempts: run at every delivery
 * of the credentials, since the agent reads its credentials file only when
 * it starts. Nothing when the machine has no agent (the local stand-in).
 */
export function leaseAgentLines(leaseDir: string, namespace: string): string[] {
  const telemetry = `${leaseDir}/telemetry.json`;
  const common = [
    '[credentials]',
    `  shared_credential_profile = "${LEASE_MACHINE_PROFILE}"`,
    `  shared_credential_file = "${leaseDir}/credentials"`,
  ].join('\n');
  return [
    `if [ -x ${AGENT_CTL} ]; then`,
    `  printf '%s\\n' ${shellQuote(common)} > ${COMMON_CONFIG}`,
    `  printf '%s' ${shellQuote(JSON.stringify(cloudWatchAgentConfig(namespace)))} > ${shellQuote(telemetry)}`,
    `  ${AGENT_CTL} -a fetch-config -m ec2 -c file:${shellQuote(telemetry)}`,
    `  for output in ${shellQuote(leaseDir)}/output-*.json; do [ -f "$output" ] && ${AGENT_CTL} -a append-config -m ec2 -c "file:$output"; done`,
    `  ${AGENT_CTL} -a stop && ${AGENT_CTL} -a start`,
    'fi',
  ];
}
