/**
 * The comment each attempt's command carries (SSM allows 100 characters): it
 * names the lease and attempt in the console, and lets a sender that takes
 * over an abandoned claim find a command the gone sender may have sent.
 */
export function attemptComment(leaseId: string, attempt: number): string {
  return `gpurent ${leaseId} attempt ${attempt}`;
}
