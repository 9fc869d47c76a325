import type middy from '@middy/core';
import { logger } from '../../shared/lambda/observability';
import { toClientError } from './errors';
import { type ApiEvent, type ApiResult, clientErrorResult, json } from './http';

/**
 * The one error handler, last in the chain: client errors become their 4xx
 * with a code; anything else is logged and answered with a plain 500 that
 * leaks nothing.
 */
export function apiErrors(): middy.MiddlewareObj<ApiEvent, ApiResult> {
  return {
    onError: (request) => {
      const known = toClientError(request.error);
      if (known) {
        request.response = clientErrorResult(known);
        return;
      }
      logger.error('Unhandled API error', request.error as Error);
      request.response = json(500, { error: { code: 'INTERNAL', message: 'Internal error', details: [] } });
    },
  };
}
