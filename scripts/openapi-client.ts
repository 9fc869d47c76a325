import openapiTS, { astToString } from 'openapi-typescript';

/** Where the typed client's types live; `npm run openapi` writes them, a test keeps them current. */
export const CLIENT_TYPES_PATH = new URL('../test/generated/gpurent-api.d.ts', import.meta.url);

const HEADER =
  '// Generated from docs/openapi.json by `npm run openapi` (openapi-typescript); do not edit.\n';

/** The `paths` and `components` types openapi-typescript generates from the document. */
export async function clientTypes(document: object): Promise<string> {
  // The generator's default options, as any client would use them: request schemas carry no
  // `default` (openapi-parts' jsonSchema says defaults in words), so no defaulted field turns required.
  const ast = await openapiTS(JSON.parse(JSON.stringify(document)));
  return HEADER + astToString(ast);
}
