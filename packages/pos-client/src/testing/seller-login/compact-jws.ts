// Compact JWS with WebCrypto ES256 for the test kit's provider: it signs ID tokens and checks client assertions (oauth4webapi only verifies).

const encoder = new TextEncoder();
const ES256 = { name: 'ECDSA', hash: 'SHA-256' } as const;

export const base64url = (bytes: Uint8Array | string) =>
  Buffer.from(typeof bytes === 'string' ? encoder.encode(bytes) : bytes).toString('base64url');

const decodeJson = (part: string | undefined): Record<string, unknown> | undefined => {
  try {
    const value: unknown = JSON.parse(Buffer.from(part ?? '', 'base64url').toString('utf8'));
    return typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
};

/** `payload` signed with `key` (ES256) under `header`; with `alg: 'none'` in the header, unsigned. */
export async function signJws(
  header: Record<string, unknown>,
  payload: object,
  key: CryptoKey,
): Promise<string> {
  const input = `${base64url(JSON.stringify(header))}.${base64url(JSON.stringify(payload))}`;
  if (header.alg === 'none') return `${input}.`;
  const signature = await crypto.subtle.sign(ES256, key, encoder.encode(input));
  return `${input}.${base64url(new Uint8Array(signature))}`;
}

/** The payload of `jws` when it is ES256 and verifies with `key`; undefined otherwise. */
export async function verifiedPayload(
  jws: string,
  key: CryptoKey,
): Promise<Record<string, unknown> | undefined> {
  const [header, payload, signature = ''] = jws.split('.');
  if (decodeJson(header)?.alg !== 'ES256') return undefined;
  const valid = await crypto.subtle
    .verify(ES256, key, Buffer.from(signature, 'base64url'), encoder.encode(`${header}.${payload}`))
    .catch(() => false);
  return valid ? decodeJson(payload) : undefined;
}

/** A fresh ES256 key pair (its public key exportable as a JWK). */
export const es256KeyPair = async () =>
  (await crypto.subtle.generateKey({ name: 'ECDSA', namedCurve: 'P-256' }, true, [
    'sign',
    'verify',
  ])) as CryptoKeyPair;

/** The public JWK of `pair`, ready for a JWKS: `kid`, `alg`, `use`, no `key_ops`. */
export async function publicJwk(pair: CryptoKeyPair, kid: string) {
  const { key_ops: _ops, ext: _ext, ...jwk } = await crypto.subtle.exportKey('jwk', pair.publicKey);
  return { ...jwk, kid, alg: 'ES256', use: 'sig' };
}
