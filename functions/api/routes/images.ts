import { ClientError } from '../../../shared/client-error';
import {
  AMI_ID_PATTERN,
  IMAGE_NAME_PATTERN,
  type ImageSummary,
  type ImageVersion,
  summarizeImages,
} from '../../../shared/domain/images';
import {
  type ImageChange,
  promoteImageVersion,
  registerImageVersion,
  rollbackImage,
} from '../../../shared/usecases/images';
import * as z from '../../../shared/zod';
import { type ApiEvent, type ApiResult, json, parseJsonBody, requireAdmin, validate } from '../http';
import {
  adminErrors,
  errorResponse,
  instant,
  jsonContent,
  jsonSchema,
  type OpenApiGroup,
  pathParameterDoc,
  ref,
  responseObject,
} from '../openapi-parts';
import { pathParameter, pathValue } from '../path';
import type { Routes } from '../routing';
import type { ApiContext } from './context';
import { regionName } from './leases';

export const imageVersionBody = z.strictObject({
  amis: z
    .record(
      regionName,
      z.string().check(z.regex(AMI_ID_PATTERN, 'must be an AMI id: ami- and 8 or 17 hex digits')),
    )
    .check(
      z.refine((amis) => Object.keys(amis).length > 0, 'name at least one region'),
      z.describe('The AMI of this version in each GPU region, e.g. {"us-east-1": "ami-0123456789abcdef0"}'),
    ),
});

const imagePart = (name: 'name' | 'version') =>
  pathParameter(
    name,
    IMAGE_NAME_PATTERN,
    'INVALID_IMAGE_NAME',
    (value) => `${name} "${value}" must be 1-64 of a-z 0-9 . _ -`,
  );
const imageName = imagePart('name');
const imageVersion = imagePart('version');

const versionView = (version: ImageVersion) => ({
  name: version.name,
  version: version.version,
  amis: version.amiByRegion,
  launchTemplateVersions: version.launchTemplateVersionByRegion,
  createdAt: new Date(version.createdAtMs).toISOString(),
});

const changeView = (change: ImageChange) => ({
  name: change.image.name,
  current: change.image.current,
  previous: change.image.history.at(-1),
  note: change.note,
});

export async function putImageVersion(event: ApiEvent, ctx: ApiContext): Promise<ApiResult> {
  requireAdmin(event);
  const name = pathValue(event, imageName);
  const version = pathValue(event, imageVersion);
  const body = validate(imageVersionBody, parseJsonBody(event), 'body');
  return json(200, versionView(await registerImageVersion(ctx.deps, name, version, body.amis)));
}

export async function promoteImage(event: ApiEvent, ctx: ApiContext): Promise<ApiResult> {
  requireAdmin(event);
  return json(
    200,
    changeView(
      await promoteImageVersion(ctx.deps, pathValue(event, imageName), pathValue(event, imageVersion)),
    ),
  );
}

export async function rollbackImageVersion(event: ApiEvent, ctx: ApiContext): Promise<ApiResult> {
  requireAdmin(event);
  return json(200, changeView(await rollbackImage(ctx.deps, pathValue(event, imageName))));
}

/** An image as operators list it: which version is current, which a rollback brings back, every version. */
const summaryView = (summary: ImageSummary) => ({
  name: summary.name,
  current: summary.current ?? null,
  previous: summary.previous ?? null,
  versions: summary.versions.map((version) => ({
    version: version.version,
    current: version.version === summary.current,
    regions: Object.keys(version.amiByRegion).sort(),
    createdAt: new Date(version.createdAtMs).toISOString(),
  })),
});

export async function listImages(event: ApiEvent, ctx: ApiContext): Promise<ApiResult> {
  requireAdmin(event);
  const { images, versions } = await ctx.deps.images.listAll();
  return json(200, { images: summarizeImages(images, versions).map(summaryView) });
}

export async function getImage(event: ApiEvent, ctx: ApiContext): Promise<ApiResult> {
  requireAdmin(event);
  const name = pathValue(event, imageName);
  const [image, versions] = await Promise.all([
    ctx.deps.images.getImage(name),
    ctx.deps.images.listVersions(name),
  ]);
  const [summary] = summarizeImages(image ? [image] : [], versions);
  if (!summary) {
    throw new ClientError(
      404,
      'IMAGE_NOT_FOUND',
      `No image ${name}: register a version with PUT /v1/admin/images/${name}/versions/{version}`,
    );
  }
  const current = summary.versions.find((version) => version.version === summary.current);
  return json(200, {
    ...summaryView(summary),
    history: image?.history ?? [],
    currentVersion: current && versionView(current),
  });
}

export const imageRoutes = {
  'PUT /v1/admin/images/{name}/versions/{version}': { handle: putImageVersion },
  'POST /v1/admin/images/{name}/versions/{version}/promote': { handle: promoteImage },
  'POST /v1/admin/images/{name}/rollback': { handle: rollbackImageVersion },
  'GET /v1/admin/images': { handle: listImages },
  'GET /v1/admin/images/{name}': { handle: getImage },
} as const satisfies Routes;

export const imageOpenApi = (): OpenApiGroup<keyof typeof imageRoutes> => {
  const nameParameter = pathParameterDoc(imageName);
  const versionParameter = pathParameterDoc(imageVersion);
  return {
    tag: {
      name: 'Images',
      description: 'For operators: the GPU images leases launch from, and their versions',
    },
    schemas: {
      ImageVersionRequest: jsonSchema(imageVersionBody),
      ImageVersion: responseObject({
        name: { type: 'string' },
        version: { type: 'string' },
        amis: { type: 'object', additionalProperties: { type: 'string' } },
        launchTemplateVersions: { type: 'object', additionalProperties: { type: 'string' } },
        createdAt: instant,
      }),
      ImageChange: responseObject(
        {
          name: { type: 'string' },
          current: { type: 'string' },
          previous: { type: 'string' },
          note: { type: 'string', description: 'What the change does: new launches only' },
        },
        ['current', 'previous'],
      ),
      ImageSummary: responseObject({
        name: { type: 'string' },
        current: {
          type: ['string', 'null'],
          description: 'The version new launches use; null until promoted',
        },
        previous: { type: ['string', 'null'], description: 'The version a rollback brings back' },
        versions: {
          type: 'array',
          description: 'Every registered version, oldest first',
          items: responseObject({
            version: { type: 'string' },
            current: { type: 'boolean' },
            regions: { type: 'array', items: { type: 'string' } },
            createdAt: instant,
          }),
        },
      }),
    },
    operations: {
      'PUT /v1/admin/images/{name}/versions/{version}': {
        operationId: 'putImageVersion',
        summary: 'Admin: register an image version (an AMI per GPU region); versions are immutable',
        description:
          'Registers the version with its AMI in each GPU region and a launch template version for each; registering it again with the same AMIs changes nothing.',
        parameters: [nameParameter, versionParameter],
        requestBody: { required: true, content: jsonContent(ref('ImageVersionRequest')) },
        responses: {
          '200': {
            description: 'The version and its launch template versions',
            content: jsonContent(ref('ImageVersion')),
          },
          '400': errorResponse(
            'VALIDATION_FAILED, INVALID_JSON, BODY_REQUIRED, INVALID_IMAGE_NAME or UNKNOWN_REGION',
          ),
          '403': errorResponse('ADMIN_REQUIRED'),
          '409': errorResponse('IMAGE_VERSION_EXISTS: the version exists with other AMIs'),
        },
      },
      'POST /v1/admin/images/{name}/versions/{version}/promote': {
        operationId: 'promoteImageVersion',
        summary: 'Admin: make this version the one new launches use',
        description:
          'New launches use the version from now on; running instances keep the AMI they started from.',
        parameters: [nameParameter, versionParameter],
        responses: {
          '200': { description: 'The image now', content: jsonContent(ref('ImageChange')) },
          '400': errorResponse('INVALID_IMAGE_NAME'),
          '403': errorResponse('ADMIN_REQUIRED'),
          '404': errorResponse('IMAGE_VERSION_NOT_FOUND'),
        },
      },
      'POST /v1/admin/images/{name}/rollback': {
        operationId: 'rollbackImage',
        summary: 'Admin: put the previously promoted version back (new launches only)',
        description:
          'Makes the version promoted before the current one current again, for new launches only.',
        parameters: [nameParameter],
        responses: {
          '200': { description: 'The image now', content: jsonContent(ref('ImageChange')) },
          '400': errorResponse('INVALID_IMAGE_NAME'),
          '403': errorResponse('ADMIN_REQUIRED'),
          '409': errorResponse('NOTHING_TO_ROLL_BACK'),
        },
      },
      'GET /v1/admin/images': {
        operationId: 'listImages',
        summary:
          'Admin: every GPU image by name, its current and previous version and every version registered',
        description: 'Every image, including those with versions registered but none promoted yet.',
        responses: {
          '200': {
            description: 'Images, including those with versions registered but none promoted yet',
            content: jsonContent(responseObject({ images: { type: 'array', items: ref('ImageSummary') } })),
          },
          ...adminErrors,
        },
      },
      'GET /v1/admin/images/{name}': {
        operationId: 'getImage',
        summary: 'Admin: an image, every version registered, the current one and the promotion history',
        description: 'The image summary with its promotion history and the current version in full.',
        parameters: [nameParameter],
        responses: {
          '200': {
            description: 'The image: ImageSummary with history and the current version in full',
            content: jsonContent({
              allOf: [
                ref('ImageSummary'),
                responseObject(
                  {
                    history: { type: 'array', items: { type: 'string' } },
                    currentVersion: ref('ImageVersion'),
                  },
                  ['currentVersion'],
                ),
              ],
            }),
          },
          '400': errorResponse('INVALID_IMAGE_NAME'),
          '403': errorResponse('ADMIN_REQUIRED'),
          '404': errorResponse('IMAGE_NOT_FOUND: no version of it is registered'),
        },
      },
    },
  };
};
