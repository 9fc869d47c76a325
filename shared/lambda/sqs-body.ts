/** An SQS message body as JSON, or undefined when it is not JSON (the caller's schema then refuses it). */
export function parseSqsBody(body: string): unknown {
  try {
    return JSON.parse(body);
  } catch {
    return undefined;
  }
}
