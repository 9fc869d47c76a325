import type { PolicyDocument } from '../domain/iam-policy';

export interface TemporaryCredentials {
  readonly accessKeyId: string;
  readonly secretAccessKey: string;
  readonly sessionToken: string;
  readonly expiresAtMs: number;
}

/** Short-lived credentials of one role, narrowed by a session policy. */
export interface ScopedCredentials {
  mint(request: {
    readonly sessionName: string;
    readonly policy: PolicyDocument;
    readonly durationSeconds: number;
  }): Promise<TemporaryCredentials>;
}
