import { randomBytes } from 'node:crypto';
import { type JWTPayload, jwtVerify, SignJWT } from 'jose';

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
