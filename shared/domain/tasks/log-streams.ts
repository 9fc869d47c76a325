/**
 * The stream-name prefix of a lease's task output: only its machine
 * credentials may create or write streams under it (`leaseMachinePolicy`),
 * and the logs reader reads nothing else. Lease ids are fixed-length, so no
 * other lease's prefix starts with it.
 */
export const leaseLogStreamPrefix = (leaseId: string) => `${leaseId}/`;

/**
 * The CloudWatch Logs streams of one attempt, under the lease's own stream
 * prefix (`leaseLogStreamPrefix`), the only streams its machine credentials
 * may write: the one rule the attempt's script, the local agent and the log
 * readers share.
 */
export function taskLogStreams(leaseId: string, attempt: number) {
  const base = `${leaseLogStreamPrefix(leaseId)}attempt-${attempt}`;
  return { stdout: `${base}/stdout`, stderr: `${base}/stderr` } as const;
}

/** The key prefix a lease's attempts share for checkpoints in the checkpoint bucket. */
export const checkpointPrefix = (tenantId: string, leaseId: string) => `${tenantId}/${leaseId}/`;

/** `s3://<bucket>/<tenantId>/<leaseId>/`: where a lease's task keeps its checkpoints (GPURENT_CHECKPOINT_URI). */
export const checkpointUri = (bucket: string, tenantId: string, leaseId: string) =>
  `s3://${bucket}/${checkpointPrefix(tenantId, leaseId)}`;
