import { writeFileSync } from 'node:fs';
import { openApiDocument } from '../functions/api/openapi';

/** Writes the served OpenAPI document to docs/openapi.json (a test keeps the two equal). */
writeFileSync(
  new URL('../docs/openapi.json', import.meta.url),
  `${JSON.stringify(openApiDocument, null, 2)}\n`,
);
