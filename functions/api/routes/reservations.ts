import { ClientError } from '../../../shared/client-error';
import { type Commitment, committedGpus, usedGpus } from '../../../shared/domain/commitments';
import { microToUsd } from '../../../shared/domain/money';
import { defineCommitment } from '../../../shared/usecases/commitments';
import * as z from '../../../shared/zod';
import { type ApiEvent, type ApiResult, json, parseJsonBody, requireAdmin, validate } from '../http';
import {
  adminErrors,
  errorResponse,
  instant as instantSchema,
  jsonContent,
  jsonSchema,
  type OpenApiGroup,
  pageParameters,
  pathParameterDoc,
  ref,
  responseObject,
  usd,
} from '../openapi-parts';
import { pathParameter, pathValue } from '../path';
import type { Routes } from '../routing';
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

const reservationId = pathParameter(
  'id',
  ADMIN_NAME,
  'INVALID_RESERVATION_ID',
  (id) => `"${id}" is not a reservation id: 1-64 of a-z 0-9 . _ -`,
);

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
  const id = pathValue(event, reservationId);
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
  const id = pathValue(event, reservationId);
  const commitment = await ctx.deps.commitments.get(id);
  if (!commitment) throw new ClientError(404, 'RESERVATION_NOT_FOUND', `No reservation ${id}`);
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
  const id = pathValue(event, reservationId);
  if (!(await ctx.deps.commitments.delete(id))) {
    throw new ClientError(404, 'RESERVATION_NOT_FOUND', `No reservation ${id}`);
  }
  return { statusCode: 204 };
}

export const reservationRoutes = {
  'GET /v1/admin/reservations': { handle: listReservations },
  'PUT /v1/admin/reservations/{id}': { handle: putReservation },
  'GET /v1/admin/reservations/{id}': { handle: getReservation },
  'DELETE /v1/admin/reservations/{id}': { handle: deleteReservation },
} as const satisfies Routes;

export const reservationOpenApi = (): OpenApiGroup<keyof typeof reservationRoutes> => {
  const idParameter = pathParameterDoc(reservationId);
  return {
    tag: { name: 'Reservations', description: 'For operators: the fleet’s reserved commitments' },
    schemas: {
      ReservationRequest: jsonSchema(reservationBody),
      Reservation: responseObject(
        {
          id: { type: 'string' },
          instanceType: { type: 'string' },
          region: { type: 'string' },
          zone: { type: 'string' },
          count: { type: 'integer' },
          gpusPerInstance: {
            type: 'number',
            description: 'Whole for most types; a fraction for fractional-GPU types (g6f, gr6f)',
          },
          hourlyRateUsd: usd,
          start: instantSchema,
          end: instantSchema,
          capacityReservationId: { type: 'string' },
          committedGpus: { type: 'number', description: 'count × gpusPerInstance' },
          usedGpus: { type: 'number', description: 'GPUs leases hold on it now' },
          leases: { type: 'integer' },
          idleRecordedUntil: { ...instantSchema, description: 'Idle reserved time is recorded up to here' },
        },
        ['capacityReservationId'],
      ),
    },
    operations: {
      'GET /v1/admin/reservations': {
        operationId: 'listReservations',
        summary: 'Admin: every reserved commitment with its use, in id order, paged by nextCursor',
        description:
          'A page of the commitments with the GPUs leases hold on each; pass nextCursor back as cursor.',
        parameters: pageParameters,
        responses: {
          '200': {
            description: 'A page of commitments',
            content: jsonContent(
              responseObject(
                {
                  reservations: { type: 'array', items: ref('Reservation') },
                  nextCursor: { type: 'string' },
                },
                ['nextCursor'],
              ),
            ),
          },
          '400': errorResponse('VALIDATION_FAILED or INVALID_CURSOR'),
          ...adminErrors,
        },
      },
      'PUT /v1/admin/reservations/{id}': {
        operationId: 'putReservation',
        summary: 'Admin: create or redefine a reserved commitment',
        description:
          'Defines the commitment after checking it against the GPU regions and the catalog; it may not shrink below the GPUs leases hold on it.',
        parameters: [idParameter],
        requestBody: { required: true, content: jsonContent(ref('ReservationRequest')) },
        responses: {
          '200': { description: 'The commitment', content: jsonContent(ref('Reservation')) },
          '400': errorResponse(
            'VALIDATION_FAILED, INVALID_JSON, BODY_REQUIRED, INVALID_RESERVATION_ID, UNKNOWN_REGION or INVALID_RESERVATION',
          ),
          '403': errorResponse('ADMIN_REQUIRED'),
          '409': errorResponse('RESERVATION_IN_USE: fewer GPUs than leases hold'),
        },
      },
      'GET /v1/admin/reservations/{id}': {
        operationId: 'getReservation',
        summary: 'Admin: a reserved commitment with its use',
        description: 'The commitment, the GPUs leases hold on it and how far its idle time is recorded.',
        parameters: [idParameter],
        responses: {
          '200': { description: 'The commitment', content: jsonContent(ref('Reservation')) },
          '400': errorResponse('INVALID_RESERVATION_ID'),
          '403': errorResponse('ADMIN_REQUIRED'),
          '404': errorResponse('RESERVATION_NOT_FOUND'),
        },
      },
      'DELETE /v1/admin/reservations/{id}': {
        operationId: 'deleteReservation',
        summary: 'Admin: delete a reserved commitment no lease holds',
        description: 'Removes the commitment; refused while a lease holds GPUs on it.',
        parameters: [idParameter],
        responses: {
          '204': { description: 'Deleted' },
          '400': errorResponse('INVALID_RESERVATION_ID'),
          '403': errorResponse('ADMIN_REQUIRED'),
          '404': errorResponse('RESERVATION_NOT_FOUND'),
          '409': errorResponse('RESERVATION_IN_USE'),
        },
      },
    },
  };
};
