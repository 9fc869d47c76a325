/**
 * The CloudWatch Logs streams of one attempt, named as SSM Run Command names
 * them with CloudWatchOutputConfig (`<commandId>/<instanceId>/<plugin>/stdout`):
 * the one rule the runner, the local agent and the log readers share.
 */
export function taskLogStreams(commandId: string, instanceId: string) {
  const base = `${commandId}/${instanceId}/aws-runShellScript`;
  return { stdout: `${base}/stdout`, stderr: `${base}/stderr` } as const;
}

/** The key prefix a lease's attempts share for checkpoints in the checkpoint bucket. */
export const checkpointPrefix = (tenantId: string, leaseId: string) => `${tenantId}/${leaseId}/`;

/** `s3://<bucket>/<tenantId>/<leaseId>/`: where a lease's task keeps its checkpoints (GPURENT_CHECKPOINT_URI). */
export const checkpointUri = (bucket: string, tenantId: string, leaseId: string) =>
  `s3://${bucket}/${checkpointPrefix(tenantId, leaseId)}`;
