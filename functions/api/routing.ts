import type { ApiEvent, ApiResult } from './http';
import type { ApiContext } from './routes/context';

export type RouteHandler = (event: ApiEvent, ctx: ApiContext) => Promise<ApiResult>;

export interface RouteDeclaration {
  readonly handle: RouteHandler;
  /** A route is public only with a reason; every other route needs a tenant token. */
  readonly publicBecause?: string;
}

/** A route group's routes, keyed by API Gateway route key (`METHOD /path`). */
export type Routes = Readonly<Record<`${'GET' | 'PUT' | 'POST' | 'DELETE'} /v1/${string}`, RouteDeclaration>>;

type Merged<Groups extends readonly Routes[]> = Groups extends readonly [
  infer First extends Routes,
  ...infer Rest extends readonly Routes[],
]
  ? First & Merged<Rest>
  : unknown;

/** The groups' routes as one table; a key two groups declare is a mistake, found at load. */
export function mergeRoutes<const Groups extends readonly Routes[]>(...groups: Groups): Merged<Groups> {
  const merged: Record<string, RouteDeclaration> = {};
  for (const group of groups) {
    for (const [key, route] of Object.entries(group)) {
      if (key in merged) throw new Error(`Route ${key} is declared by two route groups`);
      merged[key] = route;
    }
  }
  return merged as Merged<Groups>;
}
