import { ClientError } from '../../shared/client-error';
import type { ApiEvent } from './http';

const GROUPS_CLAIM = 'cognito:groups';
export const ADMIN_GROUP = 'admin';

/**
 * Admin routes need a token whose `cognito:groups` claim holds `admin`. API
 * Gateway hands list claims over as one string, `[admin ops]`; a raw list is
 * accepted too. A tenant token gets 403 and nothing happens.
 */
export function requireAdmin(event: ApiEvent): void {
  const claim: unknown = event.requestContext.authorizer?.jwt?.claims?.[GROUPS_CLAIM];
  const groups = Array.isArray(claim)
    ? claim.map(String)
    : typeof claim === 'string'
      ? claim.replace(/^\[|\]$/g, '').split(/[\s,]+/)
      : [];
  if (!groups.includes(ADMIN_GROUP)) {
    throw new ClientError(
      403,
      'ADMIN_REQUIRED',
      `This route needs a token in the ${ADMIN_GROUP} group (${GROUPS_CLAIM})`,
    );
  }
}
