import { GPU_METRIC_NAMESPACE, GPU_METRIC_PERIOD_SECONDS, NVIDIA_SMI_METRICS } from './gpu-telemetry';

/** The agent substitutes the instance id for this placeholder on the instance. */
// biome-ignore lint/suspicious/noTemplateCurlyInString: the agent's own placeholder syntax, not a template literal
export const INSTANCE_ID_PLACEHOLDER = '${aws:InstanceId}';

/** The agent's measurement for a metric is its name without the plugin's prefix. */
const MEASUREMENT_PREFIX = 'nvidia_smi_';

const AGENT_DIR = '/opt/aws/amazon-cloudwatch-agent';
const CONFIG_PATH = `${AGENT_DIR}/etc/gpurent-nvidia-gpu.json`;
/** The agent's public package for Ubuntu (the Deep Learning Base AMI) on x86_64. */
const AGENT_PACKAGE =
  'https://amazoncloudwatch-agent.s3.amazonaws.com/ubuntu/amd64/latest/amazon-cloudwatch-agent.deb';

/**
 * CloudWatch agent configuration for GPU telemetry: the `nvidia_gpu` plugin's
 * utilization, memory, temperature and power every minute into `CWAgent`,
 * with the instance id appended. The host name is omitted and the series are
 * also aggregated on exactly (InstanceId, index), so that readers can name a
 * GPU's series by those two dimensions without knowing the GPU model name the
 * plugin adds.
 */
export function cloudWatchAgentConfig() {
  return {
    agent: { metrics_collection_interval: GPU_METRIC_PERIOD_SECONDS, omit_hostname: true },
    metrics: {
      namespace: GPU_METRIC_NAMESPACE,
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
 * First-boot shell commands that install the agent when the AMI lacks it,
 * write the GPU configuration and start it. Every instance runs them: the
 * launch template's user data, and a warm machine's (which replaces it).
 */
export function gpuTelemetryCommands(): string[] {
  return [
    'set -euo pipefail',
    `mkdir -p ${AGENT_DIR}/etc`,
    `cat > ${CONFIG_PATH} <<'GPURENT_AGENT_CONFIG'`,
    JSON.stringify(cloudWatchAgentConfig(), null, 2),
    'GPURENT_AGENT_CONFIG',
    `if [ ! -x ${AGENT_DIR}/bin/amazon-cloudwatch-agent-ctl ]; then`,
    `  curl -fsSL --retry 5 -o /tmp/amazon-cloudwatch-agent.deb ${AGENT_PACKAGE}`,
    '  dpkg -i -E /tmp/amazon-cloudwatch-agent.deb',
    'fi',
    `${AGENT_DIR}/bin/amazon-cloudwatch-agent-ctl -a fetch-config -m ec2 -s -c file:${CONFIG_PATH}`,
  ];
}
