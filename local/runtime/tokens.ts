import { randomBytes } from 'node:crypto';
import { type JWTPayload, jwtVerify, SignJWT } from 'jose';
import { ADMIN_GROUP, GROUPS_CLAIM, TENANT_CLAIM } from '../../functions/api/http';

const ISSUER = 'gpurent-local';
const AUDIENCE = 'gpurent';

/**
 * Plays the Cognito user pool locally: signs tokens with a key made for this
 * run and verifies them as the HTTP API JWT authorizer would (issuer, audience,
 * expiry), handing the handler the same claims.
 */
export class LocalTokenIssuer {
  private readonly key = new Uint8Array(randomBytes(32));

  issue(subject: string, claims: Record<string, unknown>, ttlSeconds = 7 * 24 * 3600): Promise<string> {
    return new SignJWT(claims)
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(subject)
      .setIssuer(ISSUER)
      .setAudience(AUDIENCE)
      .setIssuedAt()
      .setExpirationTime(`${ttlSeconds}s`)
      .sign(this.key);
  }

  /** A user of `tenant`, as a user pool member whose `custom:tenant` attribute is set. */
  tenantToken(tenant: string): Promise<string> {
    return this.issue(`local-user-${tenant}`, { [TENANT_CLAIM]: tenant });
  }

  /** An operator: a member of the admin group (of `tenant`, as any pool user belongs to one). */
  adminToken(tenant: string): Promise<string> {
    return this.issue('local-admin', { [TENANT_CLAIM]: tenant, [GROUPS_CLAIM]: [ADMIN_GROUP] });
  }

  /** The verified claims, or undefined for a missing, forged or expired token. */
  async verify(authorization: string | undefined): Promise<JWTPayload | undefined> {
    const token = authorization?.match(/^Bearer (.+)$/i)?.[1];
    if (!token) return undefined;
    try {
      const { payload } = await jwtVerify(token, this.key, { issuer: ISSUER, audience: AUDIENCE });
      return payload;
    } catch {
      return undefined;
    }
  }
}

/** Claims as the issuer signs them: the groups claim is a list (API Gateway would render it as text). */
export const isAdminClaims = (claims: JWTPayload): boolean => {
  const groups = claims[GROUPS_CLAIM];
  return Array.isArray(groups) && groups.includes(ADMIN_GROUP);
};
