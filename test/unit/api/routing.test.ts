import { describe, expect, it } from 'vitest';
import { toClientError } from '../../../functions/api/errors';
import type { ApiEvent } from '../../../functions/api/http';
import { pathParameter, pathValue, rawPathValue } from '../../../functions/api/path';
import { mergeRoutes } from '../../../functions/api/routing';
import { ClientError } from '../../../shared/client-error';
import { ScalingGroupNotFoundError } from '../../../shared/scaling-errors';

const handle = async () => ({ statusCode: 204 });
const eventWith = (pathParameters: Record<string, string>) => ({ pathParameters }) as unknown as ApiEvent;

describe('route groups', () => {
  it('merge into one table, and a key two groups declare is refused', () => {
    const merged = mergeRoutes({ 'GET /v1/a': { handle } }, { 'PUT /v1/b': { handle } });
    expect(Object.keys(merged)).toEqual(['GET /v1/a', 'PUT /v1/b']);
    expect(() => mergeRoutes({ 'GET /v1/a': { handle } }, { 'GET /v1/a': { handle } })).toThrow(
      'Route GET /v1/a is declared by two route groups',
    );
  });
});

describe('path parameters', () => {
  const shelf = pathParameter('shelf', /^[a-z]{1,8}$/, 'INVALID_SHELF', (value) => `"${value}" is no shelf`);

  it('give the value that matches the schema', () => {
    expect(pathValue(eventWith({ shelf: 'top' }), shelf)).toBe('top');
  });

  it("answer a value outside it, or none, with the parameter's own code and message", () => {
    for (const [event, value] of [
      [eventWith({ shelf: 'TOP' }), 'TOP'],
      [eventWith({}), ''],
    ] as const) {
      const error = (() => {
        try {
          pathValue(event, shelf);
        } catch (thrown) {
          return thrown;
        }
      })();
      expect(error).toBeInstanceOf(ClientError);
      expect(error).toMatchObject({ status: 400, code: 'INVALID_SHELF', message: `"${value}" is no shelf` });
      expect((error as ClientError).details).toEqual([]);
    }
  });
});

describe('percent-encoded path parameters', () => {
  const name = pathParameter('name', /^[a-z ]{1,8}$/, 'INVALID_NAME', (value) => `"${value}" is no name`);

  it('are decoded before they are checked', () => {
    expect(pathValue(eventWith({ name: 'a%20b' }), name)).toBe('a b');
  });

  it('with a malformed escape are a 400 INVALID_PATH, not a failure', () => {
    for (const raw of ['%ZZ', '%E0%A4%A', '%']) {
      expect(() => rawPathValue(eventWith({ name: raw }), 'name')).toThrow(
        expect.objectContaining({ status: 400, code: 'INVALID_PATH', field: 'name' }),
      );
      expect(() => pathValue(eventWith({ name: raw }), name)).toThrow(ClientError);
    }
  });
});

describe('client errors', () => {
  it("are answered with the status, code and field the use case's error carries", () => {
    const error = toClientError(new ScalingGroupNotFoundError('gpu'));
    expect(error).toMatchObject({ status: 404, code: 'SCALING_GROUP_NOT_FOUND', details: [] });
    expect(new ClientError(400, 'BAD', 'fix it', 'gpus').details).toEqual([
      { path: 'gpus', message: 'fix it' },
    ]);
  });

  it('leave any other error to the 500 handler', () => {
    expect(toClientError(new Error('boom'))).toBeUndefined();
  });
});
