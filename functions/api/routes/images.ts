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
import { requireAdmin } from '../admin';
import { ApiError, type ApiEvent, type ApiResult, json, parseJsonBody, validate } from '../http';
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

function pathName(event: ApiEvent, param: 'name' | 'version'): string {
  const value = event.pathParameters?.[param] ?? '';
  if (!IMAGE_NAME_PATTERN.test(value)) {
    throw new ApiError(400, 'INVALID_IMAGE_NAME', `${param} "${value}" must be 1-64 of a-z 0-9 . _ -`);
  }
  return value;
}

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
  const name = pathName(event, 'name');
  const version = pathName(event, 'version');
  const body = validate(imageVersionBody, parseJsonBody(event), 'body');
  return json(200, versionView(await registerImageVersion(ctx.deps, name, version, body.amis)));
}

export async function promoteImage(event: ApiEvent, ctx: ApiContext): Promise<ApiResult> {
  requireAdmin(event);
  return json(
    200,
    changeView(await promoteImageVersion(ctx.deps, pathName(event, 'name'), pathName(event, 'version'))),
  );
}

export async function rollbackImageVersion(event: ApiEvent, ctx: ApiContext): Promise<ApiResult> {
  requireAdmin(event);
  return json(200, changeView(await rollbackImage(ctx.deps, pathName(event, 'name'))));
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
  const name = pathName(event, 'name');
  const [image, versions] = await Promise.all([
    ctx.deps.images.getImage(name),
    ctx.deps.images.listVersions(name),
  ]);
  const [summary] = summarizeImages(image ? [image] : [], versions);
  if (!summary) {
    throw new ApiError(
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
