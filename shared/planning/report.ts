import { RENTAL_MODES, type RentalMode } from '../domain/lease';
import { type MicroUsd, microToUsd } from '../domain/money';
import type { DemandTrace } from './demand-trace';
import type { Hindsight } from './hindsight';
import type { PolicyOutcome } from './simulate';
import { MS_PER_HOUR } from './units';

/** The replay's figures: the `--json` output, and the bench's figures. */
export interface RentalMixReport {
  readonly tasks: number;
  readonly gpuHours: number;
  readonly allOnDemandUsd: number;
  readonly policyUsd: number;
  /** policyUsd / allOnDemandUsd */
  readonly ratio: number;
  readonly byModeUsd: Readonly<Record<RentalMode, number>>;
  readonly interruptions: number;
  readonly inferenceOnSpot: number;
  readonly reservedGpusOverTime: readonly { readonly termStart: string; readonly gpus: number }[];
  readonly hindsightUsd: number;
  readonly policyVsHindsight: number;
  readonly assumptions: readonly string[];
}

export interface ReportInput {
  readonly trace: DemandTrace;
  readonly policy: PolicyOutcome;
  readonly hindsight: Hindsight;
  readonly allOnDemandMicroUsd: MicroUsd;
  readonly gpuMs: number;
  readonly assumptions: readonly string[];
}

export function rentalMixReport(input: ReportInput): RentalMixReport {
  const { policy, hindsight } = input;
  const policyMicroUsd = totalOf(policy.costMicroUsd);
  return {
    tasks: input.trace.leases.length,
    gpuHours: round(input.gpuMs / MS_PER_HOUR, 2),
    allOnDemandUsd: microToUsd(input.allOnDemandMicroUsd),
    policyUsd: microToUsd(policyMicroUsd),
    ratio: round(policyMicroUsd / input.allOnDemandMicroUsd, 4),
    byModeUsd: {
      'on-demand': microToUsd(policy.costMicroUsd['on-demand']),
      reserved: microToUsd(policy.costMicroUsd.reserved),
      spot: microToUsd(policy.costMicroUsd.spot),
    },
    interruptions: policy.interruptions,
    inferenceOnSpot: policy.inferenceOnSpot,
    reservedGpusOverTime: policy.reservedTerms.map((term) => ({
      termStart: new Date(term.termStartMs).toISOString(),
      gpus: term.gpus,
    })),
    hindsightUsd: microToUsd(hindsight.totalMicroUsd),
    policyVsHindsight: round(policyMicroUsd / hindsight.totalMicroUsd, 4),
    assumptions: input.assumptions,
  };
}

export function totalOf(costMicroUsd: Readonly<Record<RentalMode, MicroUsd>>): MicroUsd {
  return RENTAL_MODES.reduce((sum, mode) => sum + costMicroUsd[mode], 0);
}

function round(value: number, places: number): number {
  const scale = 10 ** places;
  return Math.round(value * scale) / scale;
}
