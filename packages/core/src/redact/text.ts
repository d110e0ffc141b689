// redactText: masks CPF- and IMEI-shaped digit runs and credentials written inside free text and URLs.
import * as cpf from '../identifiers/cpf.js';
import * as imei from '../identifiers/imei.js';

// One pass, left to right. UUIDs match first so their digits stay intact: request and correlation ids, and
// every id of ours (`auth_`, `ctr_`, `prop_`, `evt_` + a UUID; `msg_` + its 32 hex digits), whatever word
// characters come before, so no 11 digits inside one are ever read as a CPF (decision C-22).
const PATTERN = new RegExp(
  [
    /(?<uuid>(?<![0-9a-f])(?:[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|[0-9a-f]{32})(?![0-9a-f]))/,
    // `Bearer abc`, `Basic abc` (an Authorization header written into a message).
    /(?<scheme>\b(?:Bearer|Basic)\s+)[^\s"',;]+/,
    // `password=...`, `"client_secret": "..."`, `access_token=...` in query strings, forms and JSON text.
    /(?<pair>["']?(?<![\w-])[\w-]*(?:password|passwd|secret|token|api[_-]?key)["']?\s*[:=]\s*)(?:"[^"]*"|'[^']*'|[^\s&,;"'}]+)/,
    /(?<![\d.])(?<cpf>\d{3}\.\d{3}\.\d{3}-\d{2})(?![\d-])/,
    /(?<![\d-])(?<imei>\d{2}-\d{6}-\d{6}-\d)(?![\d-])/,
    /(?<!\d)(?<run>\d{15}|\d{11})(?!\d)/,
  ]
    .map((part) => part.source)
    .join('|'),
  'gi',
);

/**
 * Masks personal data and credentials written in text: CPFs (`12345678909`, `123.456.789-09`) become
 * `***.456.789-**`, 15-digit runs (IMEIs) keep their last 4 digits, `Bearer <token>` and
 * `password=<x>`-like pairs lose their value. Every 11-digit run is masked, CPF or not (a phone
 * number is personal too), except inside a UUID (canonical or its 32 hex digits), alone or ending an id
 * of ours (`ctr_<uuid>`): ids survive redaction.
 */
export function redactText(text: string): string {
  return text.replace(PATTERN, (match, ...args) => {
    const groups = args.at(-1) as Record<string, string | undefined>;
    if (groups.uuid) return match;
    if (groups.scheme) return `${groups.scheme}[REDACTED]`;
    if (groups.pair) return `${groups.pair}[REDACTED]`;
    if (groups.cpf) return cpf.mask(groups.cpf);
    if (groups.imei) return `**-******-***${groups.imei.slice(-5)}`;
    return match.length === 15 ? imei.mask(match) : cpf.mask(match);
  });
}
