import { openLeaseSession } from '../../../shared/usecases/lease-session';
import { type ApiEvent, type ApiResult, json, tenantOf } from '../http';
import {
  authErrors,
  errorResponse,
  instant as instantSchema,
  jsonContent,
  type OpenApiGroup,
  ref,
} from '../openapi-parts';
import { pathValue } from '../path';
import type { Routes } from '../routing';
import type { ApiContext } from './context';
import { leaseIdDoc, leaseIdParameter } from './leases';

export async function postLeaseSession(event: ApiEvent, ctx: ApiContext): Promise<ApiResult> {
  const tenantId = tenantOf(event);
  const leaseId = pathValue(event, leaseIdParameter);
  const { credentials, instances } = await openLeaseSession(ctx.deps, tenantId, leaseId);
  return json(201, {
    leaseId,
    expiresAt: new Date(credentials.expiresAtMs).toISOString(),
    credentials: {
      accessKeyId: credentials.accessKeyId,
      secretAccessKey: credentials.secretAccessKey,
      sessionToken: credentials.sessionToken,
    },
    instances: instances.map((instance) => ({
      ...instance,
      command: `aws ssm start-session --target ${instance.instanceId} --region ${instance.region}`,
    })),
    howTo:
      'Put the credentials in AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY and AWS_SESSION_TOKEN, then run the command of an instance (the AWS CLI and its Session Manager plugin are needed); `gpurent ssh <lease>` does both.',
  });
}

export const leaseSessionRoutes = {
  'POST /v1/leases/{id}/session': { handle: postLeaseSession },
} as const satisfies Routes;

export const leaseSessionOpenApi = (): OpenApiGroup<keyof typeof leaseSessionRoutes> => ({
  tag: { name: 'Sessions', description: "A shell on a lease's instances through Session Manager" },
  schemas: {
    LeaseSession: {
      type: 'object',
      required: ['leaseId', 'expiresAt', 'credentials', 'instances', 'howTo'],
      properties: {
        leaseId: { type: 'string' },
        expiresAt: { ...instantSchema, description: 'When the credentials stop working (at most an hour)' },
        credentials: {
          type: 'object',
          properties: {
            accessKeyId: { type: 'string' },
            secretAccessKey: { type: 'string' },
            sessionToken: { type: 'string' },
          },
        },
        instances: {
          type: 'array',
          items: {
            type: 'object',
            properties: {
              instanceId: { type: 'string' },
              region: { type: 'string' },
              command: { type: 'string', description: 'The AWS CLI command that opens the session' },
            },
          },
        },
        howTo: { type: 'string' },
      },
    },
  },
  operations: {
    'POST /v1/leases/{id}/session': {
      operationId: 'openLeaseSession',
      summary: "Credentials for a Session Manager session to a lease's instances",
      description:
        "Short-lived AWS credentials (an hour at most) that can open, resume and end Session Manager sessions to this lease's own running instances and nothing else. Each call is a LeaseSessionOpened event.",
      parameters: [leaseIdDoc()],
      responses: {
        '201': {
          description: 'The credentials and how to use them',
          content: jsonContent(ref('LeaseSession')),
        },
        '400': errorResponse('INVALID_LEASE_ID'),
        '404': errorResponse('LEASE_NOT_FOUND'),
        '409': errorResponse('LEASE_NOT_RUNNING: the lease has no running instances'),
        ...authErrors,
      },
    },
  },
});
