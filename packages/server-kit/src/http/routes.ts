// The routes of the Sales Authorization API (spec section 4); anything else is 404, a wrong method 405.
export type Route =
  | { name: 'token' }
  | { name: 'authorize' }
  | { name: 'confirm'; authorizationId: string }
  | { name: 'cancel'; authorizationId: string };

export type RouteMatch =
  | { ok: true; route: Route }
  | { ok: false; code: 'not_found' }
  | { ok: false; code: 'method_not_allowed' };

const ACTION = /^\/v1\/sales\/([^/]{1,128})\/(confirm|cancel)$/;

function routeOf(path: string): Route | undefined {
  if (path === '/v1/oauth/token') return { name: 'token' };
  if (path === '/v1/sales/authorize') return { name: 'authorize' };
  const action = ACTION.exec(path);
  if (!action) return undefined;
  let authorizationId: string;
  try {
    authorizationId = decodeURIComponent(action[1]!);
  } catch {
    return undefined;
  }
  return action[2] === 'confirm' ? { name: 'confirm', authorizationId } : { name: 'cancel', authorizationId };
}

/** Every route of this API is a POST. */
export function matchRoute(method: string, path: string): RouteMatch {
  const route = routeOf(path);
  if (!route) return { ok: false, code: 'not_found' };
  return method === 'POST' ? { ok: true, route } : { ok: false, code: 'method_not_allowed' };
}
