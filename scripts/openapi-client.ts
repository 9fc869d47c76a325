import openapiTS, { astToString } from 'openapi-typescript';

/** Where the typed client's types live; `npm run openapi` writes them, a test keeps them current. */
export const CLIENT_TYPES_PATH = new URL('../test/generated/gpurent-api.d.ts', import.meta.url);

const HEADER =
  '// Generated from docs/openapi.json by `npm run openapi` (openapi-typescript); do not edit.\n';

/** The `paths` and `components` types openapi-typescript generates from the document. */
export async function clientTypes(document: object): Promise<string> {
  // A default makes a request field optional, not required (the generator's default reads it as present).
  const ast = await openapiTS(JSON.parse(JSON.stringify(document)), { defaultNonNullable: false });
  return HEADER + astToString(ast);
}
