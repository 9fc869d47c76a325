import { adminErrors, errorResponse, instant, jsonContent, pageParameters, ref } from './openapi-parts';

export const adminListSchemas = {
  ImageSummary: {
    type: 'object',
    properties: {
      name: { type: 'string' },
      current: { type: ['string', 'null'], description: 'The version new launches use; null until promoted' },
      previous: { type: ['string', 'null'], description: 'The version a rollback brings back' },
      versions: {
        type: 'array',
        description: 'Every registered version, oldest first',
        items: {
          type: 'object',
          properties: {
            version: { type: 'string' },
            current: { type: 'boolean' },
            regions: { type: 'array', items: { type: 'string' } },
            createdAt: instant,
          },
        },
      },
    },
  },
};

/** The operators' lists of reserved commitments and GPU images. */
export const adminListPaths = {
  '/v1/admin/reservations': {
    get: {
      summary: 'Admin: every reserved commitment with its use, in id order, paged by nextCursor',
      parameters: pageParameters,
      responses: {
        '200': {
          description: 'A page of commitments',
          content: jsonContent({
            type: 'object',
            properties: {
              reservations: { type: 'array', items: ref('Reservation') },
              nextCursor: { type: 'string' },
            },
          }),
        },
        '400': errorResponse('VALIDATION_FAILED or INVALID_CURSOR'),
        ...adminErrors,
      },
    },
  },
  '/v1/admin/images': {
    get: {
      summary:
        'Admin: every GPU image by name, its current and previous version and every version registered',
      responses: {
        '200': {
          description: 'Images, including those with versions registered but none promoted yet',
          content: jsonContent({
            type: 'object',
            properties: { images: { type: 'array', items: ref('ImageSummary') } },
          }),
        },
        ...adminErrors,
      },
    },
  },
};
