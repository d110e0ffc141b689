// Paths with `{name}` parameters: filled by the clients, matched by the servers, both from the registry.
import type { EndpointDefinition, EndpointTable } from './endpoint.js';

const PARAMETER = /\{(\w+)\}/g;

/** A path parameter is one segment of 1 to 128 characters; anything longer addresses no endpoint. */
const SEGMENT = '([^/]{1,128})';

/** The endpoint's path with each `{name}` replaced by its encoded value. */
export function endpointPath(
  endpoint: EndpointDefinition,
  params: Readonly<Record<string, string>> = {},
): string {
  return endpoint.path.replace(PARAMETER, (_, name: string) => {
    const value = params[name];
    if (value === undefined) throw new Error(`${endpoint.path} needs the path parameter ${name}`);
    return encodeURIComponent(value);
  });
}

export type EndpointMatch<Id extends string> =
  | { ok: true; operationId: Id; params: Record<string, string> }
  | { ok: false; code: 'not_found' }
  | { ok: false; code: 'method_not_allowed'; allow: string };

interface Pattern {
  operationId: string;
  method: string;
  regex: RegExp;
  names: string[];
}

const patternOf = (operationId: string, { method, path }: EndpointDefinition): Pattern => {
  const names = [...path.matchAll(PARAMETER)].map((match) => match[1]!);
  const source = path
    .split(PARAMETER)
    .map((part, index) => (index % 2 === 1 ? SEGMENT : part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
    .join('');
  return { operationId, method, regex: new RegExp(`^${source}$`), names };
};

/**
 * Decoded parameters of a matching path; `undefined` when it does not match, a value is not valid UTF-8,
 * or holds a NUL (no stored id does, decision C-20: such a path names nothing, on every store alike).
 */
function paramsOf(pattern: Pattern, path: string): Record<string, string> | undefined {
  const found = pattern.regex.exec(path);
  if (!found) return undefined;
  let values: string[];
  try {
    values = pattern.names.map((_, index) => decodeURIComponent(found[index + 1]!));
  } catch {
    return undefined;
  }
  if (values.some((value) => value.includes('\u0000'))) return undefined;
  return Object.fromEntries(pattern.names.map((name, index) => [name, values[index]!]));
}

/**
 * The router of one API: which endpoint a method and path address, with their path parameters. A path
 * no endpoint has is `not_found`; a known path with another method is `method_not_allowed` and `allow`.
 */
export function createEndpointMatcher<T extends EndpointTable>(table: T) {
  const patterns = Object.entries(table).map(([operationId, endpoint]) => patternOf(operationId, endpoint));
  return (method: string, path: string): EndpointMatch<Extract<keyof T, string>> => {
    const allowed: string[] = [];
    for (const pattern of patterns) {
      const params = paramsOf(pattern, path);
      if (params === undefined) continue;
      if (pattern.method === method.toUpperCase()) {
        return { ok: true, operationId: pattern.operationId as Extract<keyof T, string>, params };
      }
      allowed.push(pattern.method);
    }
    return allowed.length > 0
      ? { ok: false, code: 'method_not_allowed', allow: [...new Set(allowed)].join(', ') }
      : { ok: false, code: 'not_found' };
  };
}
