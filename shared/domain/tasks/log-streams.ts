/**
 * The CloudWatch Logs streams of one attempt, named as SSM Run Command names
 * them with CloudWatchOutputConfig (`<commandId>/<instanceId>/<plugin>/stdout`):
 * the one rule the runner, the local agent and the log readers share.
 */
export function taskLogStreams(commandId: string, instanceId: string) {
  const base = `${commandId}/${instanceId}/aws-runShellScript`;
  return { stdout: `${base}/stdout`, stderr: `${base}/stderr` } as const;
}

/** The S3 prefix a lease's attempts share for checkpoints. */
export function checkpointUri(bucket: string, tenantId: string, leaseId: string): string {
  return `s3://${bucket}/${tenantId}/${leaseId}/`;
}
