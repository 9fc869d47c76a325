import { GATEWAY_UNAUTHORIZED } from '../../functions/api/gateway-errors';
import { type ApiResult, clientErrorResult, json, validate } from '../../functions/api/http';
import { ClientError } from '../../shared/client-error';
import { TENANT_ID, TENANT_ID_RULE } from '../../shared/ids';
import * as z from '../../shared/zod';
import { isAdminClaims, type LocalTokenIssuer } from './tokens';

/*
 * Why an endpoint of the local gateway, and not a signing key the CLI reads
 * from a file: the run's key never leaves the process that made it (a key on
 * disk would let anything that reads the folder sign tokens of any shape, admin
 * included, and would outlive the run), the token's shape stays in one place
 * (LocalTokenIssuer), and the CLI needs no JWT code. It cannot exist in AWS:
 * the path is outside /v1 and outside API_ROUTES, from which the CDK routes,
 * the OpenAPI document and this gateway's API matching are all derived, and in
 * AWS tokens come from Cognito, which gpurent cannot sign for. Minting needs the
 * run's admin token (in the manifest `npm start` writes), so a stray request to
 * 127.0.0.1 gets nothing, as creating a user pool member needs an operator.
 */
export const LOCAL_TOKEN_PATH = '/local/tokens';

const tokenRequest = z.strictObject({ tenant: z.string().check(z.regex(TENANT_ID, TENANT_ID_RULE)) });

function tenantOfBody(body: string): string {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    throw new ClientError(400, 'INVALID_JSON', 'The request body is not valid JSON');
  }
  return validate(tokenRequest, parsed, 'token request').tenant;
}

/** `POST /local/tokens {tenant}` with the run's admin token: a token of that tenant, as a new user of it. */
export async function mintLocalToken(
  tokens: LocalTokenIssuer,
  authorization: string | undefined,
  body: string,
): Promise<ApiResult> {
  const claims = await tokens.verify(authorization);
  if (!claims) return json(GATEWAY_UNAUTHORIZED.status, GATEWAY_UNAUTHORIZED.body);
  try {
    if (!isAdminClaims(claims)) {
      throw new ClientError(
        403,
        'ADMIN_REQUIRED',
        'Minting a local token needs the admin token of this run (adminToken in .gpurent/local.json)',
      );
    }
    const tenant = tenantOfBody(body);
    return json(201, { tenant, token: await tokens.tenantToken(tenant) });
  } catch (error) {
    if (error instanceof ClientError) return clientErrorResult(error);
    throw error;
  }
}
