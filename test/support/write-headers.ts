// The headers of an authenticated JSON write with fresh request ids: what tests send when only the body is at fault.
export const jsonWriteHeaders = (
  token: string,
  extra: Record<string, string> = {},
): Record<string, string> => ({
  authorization: `Bearer ${token}`,
  'content-type': 'application/json',
  'idempotency-key': crypto.randomUUID(),
  'x-request-id': crypto.randomUUID(),
  'x-correlation-id': crypto.randomUUID(),
  ...extra,
});
