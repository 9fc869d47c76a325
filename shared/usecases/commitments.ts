import { ClientError } from '../client-error';
import type { Commitment } from '../domain/commitments';
import { usdToMicro } from '../domain/money';
import { UnknownRegionError } from '../errors';
import type { CommitmentDefinition } from '../ports/commitments';
import type { ControlPlane } from './dependencies';

/** A commitment as the admin API takes it: times as instants, the rate in USD. */
export interface CommitmentInput {
  readonly instanceType: string;
  readonly region: string;
  readonly zone: string;
  readonly count: number;
  /** USD per instance-hour; the catalog's 1-year reserved rate when absent. */
  readonly hourlyRate?: number | undefined;
  readonly startMs: number;
  readonly endMs: number;
  readonly capacityReservationId?: string | undefined;
}

/** The commitment cannot exist as described (a type not sold in the region, a zone the fleet has not). */
export class InvalidCommitmentError extends ClientError {
  constructor(field: string, message: string) {
    super(400, 'INVALID_RESERVATION', message, field);
    this.name = 'InvalidCommitmentError';
  }
}

type Deps = Pick<ControlPlane, 'commitments' | 'catalog' | 'placement' | 'compute'>;

/**
 * Creates or redefines a commitment after checking it against the GPU regions,
 * the catalog and the zones the fleet launches into (a commitment in any other
 * zone could never carry a lease).
 */
export async function defineCommitment(deps: Deps, id: string, input: CommitmentInput): Promise<Commitment> {
  if (!deps.placement.regions.includes(input.region)) {
    throw new UnknownRegionError('regions', input.region, deps.placement.regions);
  }
  if (!deps.catalog.isPricedIn(input.instanceType, input.region)) {
    throw new InvalidCommitmentError(
      'instanceType',
      `instanceType ${input.instanceType} is not a GPU type sold in ${input.region}`,
    );
  }
  const zones = (await deps.compute.fleet()).find((fleet) => fleet.region === input.region)?.zones ?? [];
  if (!zones.includes(input.zone)) {
    throw new InvalidCommitmentError(
      'zone',
      `zone ${input.zone} is not a zone the fleet launches into in ${input.region}; use one of: ${zones.join(', ')}`,
    );
  }
  const definition: CommitmentDefinition = {
    id,
    instanceType: input.instanceType,
    region: input.region,
    zone: input.zone,
    count: input.count,
    gpusPerInstance: deps.catalog.gpusPerInstance(input.instanceType),
    hourlyMicroUsd:
      input.hourlyRate === undefined
        ? deps.catalog.reservedMicroPerHour(input.instanceType, input.region)
        : usdToMicro(input.hourlyRate),
    startMs: input.startMs,
    endMs: input.endMs,
    capacityReservationId: input.capacityReservationId,
  };
  return deps.commitments.put(definition);
}
