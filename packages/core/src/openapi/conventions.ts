// Text both documents open with: the cross-cutting conventions of spec sections 1, 5, 7, 8 and 9.
export const conventions = `
## Conventions

- **Money** is \`{ amount, currency }\`: \`amount\` an integer in cents, never a float; \`currency\` always \`BRL\`
  (anything else is \`unsupported_currency\`).
- **Timestamps** are ISO 8601 in UTC with milliseconds and \`Z\` (\`2026-01-15T12:00:00.000Z\`).
- **Headers**: every call carries \`X-Request-Id\` (new on every retry) and \`X-Correlation-Id\` (one per sale
  journey), both uuid v4; write POSTs carry \`Idempotency-Key\` (retained 24 hours). The processing time comes
  back in \`X-Processing-Time-Ms\`, never in the body.
- **No personal data in a query string**: the CPF travels in request bodies.
- **Envelope**: every response but the token endpoint's is \`{ success, message, timestamp, requestId, data,
  error }\`; an error has \`success: false\`, \`data: null\` and \`error: { code, legacyCode, message, details? }\`.
  Codes are stable \`snake_case\` and never change; the catalog is \`docs/errors.md\`. Each operation lists the
  codes it can answer in \`x-error-codes\`.
- **Rate limits** per client_id (adjustable by contract): tokens 60, reads 600, writes 120 per minute; an
  excess is \`429 rate_limit_exceeded\` with \`Retry-After\` in seconds; back off exponentially with jitter.
- **Versioning**: \`/v1\` in the path. New optional response fields, enum values and endpoints arrive without
  notice: ignore unknown fields.
`;

/** `x-rate-limit` of an operation: the default limit per client_id (spec section 8). */
export const rateLimit = (perMinute: number) => ({ 'x-rate-limit': { perMinute, key: 'client_id' } });
