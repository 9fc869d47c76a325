import { mkdirSync, writeFileSync } from 'node:fs';
import { openApiDocument } from '../functions/api/openapi';
import { CLIENT_TYPES_PATH, clientTypes } from './openapi-client';

/**
 * Writes the served OpenAPI document to docs/openapi.json and the typed client's
 * types generated from it (tests keep both equal to what this writes).
 */
writeFileSync(
  new URL('../docs/openapi.json', import.meta.url),
  `${JSON.stringify(openApiDocument, null, 2)}\n`,
);
mkdirSync(new URL('.', CLIENT_TYPES_PATH), { recursive: true });
writeFileSync(CLIENT_TYPES_PATH, await clientTypes(openApiDocument));
