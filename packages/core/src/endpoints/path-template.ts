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

/** Literal segments rank before parameters, position by position: `/sales/authorize` before `/sales/{id}`. */
const specificity = (a: string, b: string): number => {
  const [left, right] = [a.split('/'), b.split('/')];
  for (let index = 0; index < Math.min(left.length, right.length); index++) {
    const literal =
      Number(PARAMETER_SEGMENT.test(left[index]!)) - Number(PARAMETER_SEGMENT.test(right[index]!));
    if (literal !== 0) return literal;
  }
  return 0;
};
const PARAMETER_SEGMENT = /^\{\w+\}$/;

/**
 * The router of one API: which endpoint a method and path address, with their path parameters. The most
 * specific path that matches decides (a literal segment wins over a parameter, whatever the method): a
 * path no endpoint has is `not_found`; a known path with another method is `method_not_allowed` and `allow`.
 */
export function createEndpointMatcher<T extends EndpointTable>(table: T) {
  const paths = [...new Set(Object.values(table).map((endpoint) => endpoint.path))].sort(specificity);
  const byPath = paths.map((path) =>
    Object.entries(table)
      .filter(([, endpoint]) => endpoint.path === path)
      .map(([operationId, endpoint]) => patternOf(operationId, endpoint)),
  );
  return (method: string, path: string): EndpointMatch<Extract<keyof T, string>> => {
    for (const patterns of byPath) {
      const params = paramsOf(patterns[0]!, path);
      if (params === undefined) continue;
      const found = patterns.find((pattern) => pattern.method === method.toUpperCase());
      if (found) return { ok: true, operationId: found.operationId as Extract<keyof T, string>, params };
      const allow = [...new Set(patterns.map((pattern) => pattern.method))].join(', ');
      return { ok: false, code: 'method_not_allowed', allow };
    }
    return { ok: false, code: 'not_found' };
  };
}
