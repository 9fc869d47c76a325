import { randomUUID } from 'node:crypto';
import { apiErrorLine } from './api-error';
import { CliError, UnreachableApiError } from './errors';
import type { Session } from './session';

export interface ApiResponse<Body> {
  readonly status: number;
  readonly body: Body;
}

/** The gpurent HTTP API with the session's token; any non-2xx answer becomes a one-line CliError. */
export class ApiClient {
  constructor(private readonly session: Session) {}

  async request<Body = Record<string, unknown>>(
    method: string,
    path: string,
    options: { body?: unknown; query?: Record<string, string | undefined>; idempotent?: boolean } = {},
  ): Promise<ApiResponse<Body>> {
    const url = new URL(
      path,
      this.session.apiUrl.endsWith('/') ? this.session.apiUrl : `${this.session.apiUrl}/`,
    );
    for (const [name, value] of Object.entries(options.query ?? {})) {
      if (value !== undefined) url.searchParams.set(name, value);
    }
    const headers: Record<string, string> = { authorization: `Bearer ${this.session.token}` };
    if (options.body !== undefined) headers['content-type'] = 'application/json';
    if (options.idempotent) headers['idempotency-key'] = randomUUID();
    let response: Response;
    try {
      response = await fetch(url, {
        method,
        headers,
        body: options.body === undefined ? undefined : JSON.stringify(options.body),
      });
    } catch {
      throw new UnreachableApiError(this.session.apiUrl);
    }
    const text = await response.text();
    const body =
      text && response.headers.get('content-type')?.startsWith('application/json') ? JSON.parse(text) : text;
    if (!response.ok) {
      throw new CliError(apiErrorLine(response.status, response.statusText, body, this.session.apiUrl));
    }
    return { status: response.status, body: body as Body };
  }
}
