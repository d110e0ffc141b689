// The provider's signing keys, made at start with WebCrypto: one per ID token algorithm FAPI 2.0 allows.
import { webcrypto } from 'node:crypto';

/** The ID token algorithms of FAPI 2.0 (DESIGN 25); RS256, HS* and `none` are never offered. */
export const ID_TOKEN_ALGORITHMS = ['PS256', 'ES256', 'EdDSA'] as const;
export type IdTokenAlgorithm = (typeof ID_TOKEN_ALGORITHMS)[number];

const generation = {
  PS256: { name: 'RSA-PSS', modulusLength: 2048, publicExponent: new Uint8Array([1, 0, 1]), hash: 'SHA-256' },
  ES256: { name: 'ECDSA', namedCurve: 'P-256' },
  EdDSA: { name: 'Ed25519' },
} as const;

/** A private JWK of `alg` with a fresh `kid`, as oidc-provider's `jwks` takes it. */
async function signingJwk(
  alg: IdTokenAlgorithm,
): Promise<webcrypto.JsonWebKey & { kid: string; alg: string }> {
  const pair = (await webcrypto.subtle.generateKey(generation[alg], true, [
    'sign',
    'verify',
  ])) as webcrypto.CryptoKeyPair;
  // WebCrypto's `key_ops: ['sign']` would be published with the public key, and verifiers would skip it.
  const { key_ops: _ops, ext: _ext, ...jwk } = await webcrypto.subtle.exportKey('jwk', pair.privateKey);
  return { ...jwk, kid: `${alg.toLowerCase()}-${webcrypto.randomUUID()}`, alg, use: 'sig' };
}

/** The provider's private JWK set: one key per allowed algorithm. */
export async function providerSigningKeys() {
  return { keys: await Promise.all(ID_TOKEN_ALGORITHMS.map(signingJwk)) };
}
