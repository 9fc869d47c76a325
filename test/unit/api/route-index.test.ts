import { describe, expect, it } from 'vitest';
import { ROUTE_GROUPS, ROUTE_INDEX } from '../../../functions/api/route-index';
import { ROUTE_TABLE } from '../../../functions/api/route-keys';

/*
 * The handler serves from ROUTE_INDEX and imports a route's group on its first
 * request (cold starts, issue #48); the CDK API, the local gateway and the
 * OpenAPI document follow ROUTE_TABLE. The two must name the same routes.
 */
describe('route index', () => {
  it('names every route of ROUTE_TABLE, and no other', () => {
    expect(Object.keys(ROUTE_INDEX).sort()).toEqual(Object.keys(ROUTE_TABLE).sort());
  });

  it("sends each route to the group that declares it, whose module serves ROUTE_TABLE's declaration", async () => {
    for (const [key, group] of Object.entries(ROUTE_INDEX)) {
      const routes = await ROUTE_GROUPS[group]();
      expect(routes[key], key).toBe(ROUTE_TABLE[key as keyof typeof ROUTE_TABLE]);
    }
  });
});
