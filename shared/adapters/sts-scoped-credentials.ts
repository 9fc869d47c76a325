import { AssumeRoleCommand, type STSClient } from '@aws-sdk/client-sts';
import type { ScopedCredentials, TemporaryCredentials } from '../ports/scoped-credentials';

export class CredentialsNotIssuedError extends Error {
  constructor(readonly roleArn: string) {
    super(`STS returned no credentials for ${roleArn}`);
    this.name = 'CredentialsNotIssuedError';
  }
}

/** AssumeRole of one role with a session policy: the credentials allow what both allow. */
export class StsScopedCredentials implements ScopedCredentials {
  constructor(
    private readonly client: STSClient,
    private readonly roleArn: string,
  ) {}

  async mint(request: Parameters<ScopedCredentials['mint']>[0]): Promise<TemporaryCredentials> {
    const { Credentials } = await this.client.send(
      new AssumeRoleCommand({
        RoleArn: this.roleArn,
        RoleSessionName: request.sessionName,
        Policy: JSON.stringify(request.policy),
        DurationSeconds: request.durationSeconds,
      }),
    );
    const { AccessKeyId, SecretAccessKey, SessionToken, Expiration } = Credentials ?? {};
    if (!AccessKeyId || !SecretAccessKey || !SessionToken || !Expiration) {
      throw new CredentialsNotIssuedError(this.roleArn);
    }
    return {
      accessKeyId: AccessKeyId,
      secretAccessKey: SecretAccessKey,
      sessionToken: SessionToken,
      expiresAtMs: Expiration.getTime(),
    };
  }
}
