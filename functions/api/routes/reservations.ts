import { type Commitment, committedGpus, usedGpus } from '../../../shared/domain/commitments';
import { microToUsd } from '../../../shared/domain/money';
import { defineCommitment } from '../../../shared/usecases/commitments';
import * as z from '../../../shared/zod';
import { requireAdmin } from '../admin';
import { ApiError, type ApiEvent, type ApiResult, json, parseJsonBody, validate } from '../http';
import type { ApiContext } from './context';
import { listQuery, regionName } from './leases';

/** Names of admin-defined things (reservations, images, versions). */
export const ADMIN_NAME = /^[a-z0-9._-]{1,64}$/;

const instant = z.iso.datetime({
  offset: true,
  message: 'must be an ISO-8601 date-time such as 2026-12-01T00:00:00Z',
});

export const reservationBody = z
  .strictObject({
    instanceType: z
      .string()
      .check(z.regex(/^[a-z0-9-]+\.[a-z0-9]+$/, 'must be an EC2 instance type such as g5.xlarge')),
    region: regionName,
    zone: z
      .string()
      .check(z.regex(/^[a-z]{2}(-gov)?-[a-z]+-\d[a-z]$/, 'must be an availability zone such as us-east-1a')),
    count: z.number().check(z.int(), z.gte(1, 'must be at least 1'), z.lte(10_000)),
    hourlyRate: z
      .optional(z.number().check(z.positive(), z.lte(10_000)))
      .check(z.describe('USD per instance-hour (default: the catalog 1-year reserved rate)')),
    start: instant,
    end: instant,
    capacityReservationId: z.optional(
      z
        .string()
        .check(
          z.regex(/^cr-[0-9a-f]{17}$/, 'must be an EC2 capacity reservation id such as cr-0123456789abcdef0'),
        ),
    ),
  })
  .check(
    z.refine((body) => Date.parse(body.end) > Date.parse(body.start), {
      message: 'end must be after start',
      path: ['end'],
    }),
  );

function reservationIdOf(event: ApiEvent): string {
  const id = event.pathParameters?.id ?? '';
  if (!ADMIN_NAME.test(id)) {
    throw new ApiError(
      400,
      'INVALID_RESERVATION_ID',
      `"${id}" is not a reservation id: 1-64 of a-z 0-9 . _ -`,
    );
  }
  return id;
}

function reservationView(commitment: Commitment) {
  return {
    id: commitment.id,
    instanceType: commitment.instanceType,
    region: commitment.region,
    zone: commitment.zone,
    count: commitment.count,
    gpusPerInstance: commitment.gpusPerInstance,
    hourlyRateUsd: microToUsd(commitment.hourlyMicroUsd),
    start: new Date(commitment.startMs).toISOString(),
    end: new Date(commitment.endMs).toISOString(),
    capacityReservationId: commitment.capacityReservationId,
    committedGpus: committedGpus(commitment),
    usedGpus: usedGpus(commitment),
    leases: Object.keys(commitment.holders).length,
    idleRecordedUntil: new Date(commitment.idleMeteredUntilMs).toISOString(),
  };
}

export async function putReservation(event: ApiEvent, ctx: ApiContext): Promise<ApiResult> {
  requireAdmin(event);
  const id = reservationIdOf(event);
  const body = validate(reservationBody, parseJsonBody(event), 'body');
  const commitment = await defineCommitment(ctx.deps, id, {
    ...body,
    startMs: Date.parse(body.start),
    endMs: Date.parse(body.end),
  });
  return json(200, reservationView(commitment));
}

export async function getReservation(event: ApiEvent, ctx: ApiContext): Promise<ApiResult> {
  requireAdmin(event);
  const id = reservationIdOf(event);
  const commitment = await ctx.deps.commitments.get(id);
  if (!commitment) throw new ApiError(404, 'RESERVATION_NOT_FOUND', `No reservation ${id}`);
  return json(200, reservationView(commitment));
}

export async function listReservations(event: ApiEvent, ctx: ApiContext): Promise<ApiResult> {
  requireAdmin(event);
  const query = validate(listQuery, event.queryStringParameters ?? {}, 'query');
  const page = await ctx.deps.commitments.page(query.limit, query.cursor);
  return json(200, { reservations: page.commitments.map(reservationView), nextCursor: page.nextCursor });
}

export async function deleteReservation(event: ApiEvent, ctx: ApiContext): Promise<ApiResult> {
  requireAdmin(event);
  const id = reservationIdOf(event);
  if (!(await ctx.deps.commitments.delete(id))) {
    throw new ApiError(404, 'RESERVATION_NOT_FOUND', `No reservation ${id}`);
  }
  return { statusCode: 204 };
}
