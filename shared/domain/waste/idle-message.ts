import { createHash } from 'node:crypto';
import type { IdleOutcome, IdlePolicy } from './idle-policy';

/** A lease's idle notice for the budget alerts topic (`kind` = `idle`). */
export interface IdleAlertMessage {
  readonly subject: string;
  readonly body: string;
  readonly attributes: {
    readonly tenant: string;
    readonly leaseId: string;
    readonly kind: 'idle';
    readonly action: Exclude<IdleOutcome, 'exempt'>;
    /** The same for every send of one episode: subscribers drop a repeat. */
    readonly alertId: string;
  };
}

export interface IdleFinding {
  readonly tenantId: string;
  readonly leaseId: string;
  readonly episodeId: string;
  readonly idleSinceMs: number;
  readonly gpus: number;
  readonly peakPercent: number;
  readonly meanPercent: number;
  readonly policy: Pick<IdlePolicy, 'belowPercent' | 'forMinutes'>;
  readonly action: Exclude<IdleOutcome, 'exempt'>;
}

export const idleAlertIdOf = (tenantId: string, episodeId: string) =>
  createHash('sha256').update(`${tenantId}\n${episodeId}`).digest('hex').slice(0, 32);

const percent = (value: number) => `${Math.round(value * 10) / 10}%`;

/** The figures of an idle finding in one sentence: the notice's and the released lease's reason. */
export function idleReason(finding: IdleFinding): string {
  return `Idle: all ${finding.gpus} GPU(s) below ${finding.policy.belowPercent}% utilization for ${
    finding.policy.forMinutes
  } minutes since ${new Date(finding.idleSinceMs).toISOString()} (peak ${percent(finding.peakPercent)}, mean ${percent(
    finding.meanPercent,
  )})`;
}

export function idleAlertMessage(finding: IdleFinding): IdleAlertMessage {
  const verb = finding.action === 'release' ? 'released' : 'idle';
  return {
    subject: `gpurent: lease ${finding.leaseId} ${verb} (idle GPUs)`,
    body: [
      `${idleReason(finding)}.`,
      finding.action === 'release'
        ? 'The idle policy releases it now; its bill closes when the instances end.'
        : 'The idle policy only notifies: the lease keeps running (and billing) until released.',
    ].join('\n'),
    attributes: {
      tenant: finding.tenantId,
      leaseId: finding.leaseId,
      kind: 'idle',
      action: finding.action,
      alertId: idleAlertIdOf(finding.tenantId, finding.episodeId),
    },
  };
}
