// an authorization is valid for 15 minutes, until its `expiresAt`.

/** True once `now` has reached `expiresAt`: the POS must not invoice and must authorize again. */
export function isExpired(authorization: { expiresAt: string }, now: Date = new Date()): boolean {
  return now.getTime() >= Date.parse(authorization.expiresAt);
}
