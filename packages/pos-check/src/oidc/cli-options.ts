// The `--oidc` options of fin-pos-check: the issuer, our registration (client id, redirect URI, keys or certificate), the login command.
import { readFileSync } from 'node:fs';
import type { CheckTls } from '../options.js';
import { commandLogin } from './login-command.js';
import type { OidcCheckOptions } from './options.js';

export interface OidcCliValues {
  oidc?: string;
  'oidc-client-id'?: string;
  'oidc-redirect-uri'?: string;
  'oidc-private-key'?: string;
  'oidc-dpop-key'?: string;
  'oidc-login-command'?: string;
}

/** What the command line says, keys still JWK text: imported by `oidcCheckOptions` before the run. */
export interface OidcCliOptions {
  issuer: string;
  registration?: {
    clientId: string;
    redirectUri: string;
    loginCommand: string;
    privateKey?: JsonWebKey;
    dpop?: JsonWebKey;
  };
  tls?: CheckTls;
}

type UsageErrorClass = new (message: string) => Error;

function readJwk(flag: string, file: string, UsageError: UsageErrorClass): JsonWebKey {
  try {
    const jwk = JSON.parse(readFileSync(file, 'utf8')) as JsonWebKey;
    if (typeof jwk.kty === 'string' && typeof jwk.d === 'string') return jwk;
  } catch {}
  throw new UsageError(`--${flag} ${file}: a private JWK (JSON with kty and d) is expected`);
}

/** The `--oidc` options checked before anything is sent, or the usage error saying what to change. */
export function oidcCliOptions(
  values: OidcCliValues,
  tls: CheckTls | undefined,
  UsageError: UsageErrorClass,
): OidcCliOptions {
  const issuer = values.oidc ?? '';
  if (!URL.canParse(issuer) || new URL(issuer).protocol !== 'https:')
    throw new UsageError('--oidc must be the issuer, an https URL such as https://login.pos.example.com');
  const named = ['oidc-client-id', 'oidc-redirect-uri', 'oidc-login-command'] as const;
  const given = named.filter((flag) => values[flag] !== undefined);
  if (given.length === 0 && values['oidc-private-key'] === undefined) return { issuer, ...(tls && { tls }) };
  if (given.length < named.length)
    throw new UsageError(
      'the login checks need --oidc-client-id, --oidc-redirect-uri and --oidc-login-command together',
    );
  if (!URL.canParse(values['oidc-redirect-uri']!))
    throw new UsageError('--oidc-redirect-uri must be an absolute URL');
  const privateKey =
    values['oidc-private-key'] && readJwk('oidc-private-key', values['oidc-private-key'], UsageError);
  if (!privateKey && !tls?.cert)
    throw new UsageError(
      'give --oidc-private-key and --oidc-dpop-key (private_key_jwt), or --cert and --key (tls_client_auth)',
    );
  if (privateKey && !values['oidc-dpop-key'])
    throw new UsageError('private_key_jwt needs --oidc-dpop-key: FAPI 2.0 tokens are sender-constrained');
  const dpop = values['oidc-dpop-key'] && readJwk('oidc-dpop-key', values['oidc-dpop-key'], UsageError);
  const registration = {
    clientId: values['oidc-client-id']!,
    redirectUri: values['oidc-redirect-uri']!,
    loginCommand: values['oidc-login-command']!,
    ...(privateKey && { privateKey }),
    ...(dpop && { dpop }),
  };
  return { issuer, registration, ...(tls && { tls }) };
}

/** The WebCrypto algorithm of a JWK by its key type: ES256 (P-256), Ed25519, or PS256 (RSA). */
const algorithmOf = (jwk: JsonWebKey): EcKeyImportParams | RsaHashedImportParams | Algorithm =>
  jwk.kty === 'EC'
    ? { name: 'ECDSA', namedCurve: jwk.crv ?? 'P-256' }
    : jwk.kty === 'OKP'
      ? { name: 'Ed25519' }
      : { name: 'RSA-PSS', hash: 'SHA-256' };

/** The public half of a private JWK: its private members left out. */
const publicOf = ({ d: _d, p: _p, q: _q, dp: _dp, dq: _dq, qi: _qi, key_ops: _ops, ...jwk }: JsonWebKey) =>
  jwk;

async function keyPairOf(jwk: JsonWebKey): Promise<CryptoKeyPair> {
  const algorithm = algorithmOf(jwk);
  const privateKey = await crypto.subtle.importKey('jwk', jwk, algorithm, false, ['sign']);
  const publicKey = await crypto.subtle.importKey('jwk', publicOf(jwk), algorithm, true, ['verify']);
  return { privateKey, publicKey };
}

/** The runner's options: keys imported, the login command as the login hook. */
export async function oidcCheckOptions(cli: OidcCliOptions): Promise<OidcCheckOptions> {
  const { issuer, registration, tls } = cli;
  if (!registration) return { issuer, ...(tls && { tls }) };
  const { privateKey, dpop } = registration;
  const kid = (privateKey as { kid?: string } | undefined)?.kid;
  const clientAuth = privateKey
    ? { privateKey: (await keyPairOf(privateKey)).privateKey, ...(kid && { kid }) }
    : ('tls_client_auth' as const);
  return {
    issuer,
    client: {
      clientId: registration.clientId,
      redirectUri: registration.redirectUri,
      clientAuth,
      ...(dpop && { dpop: await keyPairOf(dpop) }),
    },
    login: commandLogin(registration.loginCommand),
    ...(tls && { tls }),
  };
}
