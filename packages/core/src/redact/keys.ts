// What a key name says about its value: a credential to drop, or personal data (CPF, IMEI, phone) to mask.

export type KeyKind = 'secret' | 'cpf' | 'imei' | 'phone';

// Compared on the key lower-cased without separators: `client_secret`, `clientSecret`, `Client-Secret` alike.
const SECRET_EXACT = new Set([
  'authorization',
  'proxyauthorization',
  'cookie',
  'setcookie',
  'apikey',
  'xapikey',
  'pwd',
]);
const SECRET_PARTS = ['password', 'passwd', 'secret', 'privatekey'];

/**
 * How to treat the value under `key`: passwords, secrets, tokens (`access_token`, `refreshToken`,
 * `sessionToken` ...), `Authorization` and cookies are secrets; `cpf` / `...taxId`, `...imei` and
 * `...phone...` hold personal data. `Idempotency-Key`, `tokenType` and the rest are left alone.
 */
export function keyKind(key: string): KeyKind | undefined {
  const k = key.toLowerCase().replace(/[^a-z0-9]/g, '');
  if (SECRET_EXACT.has(k) || k.endsWith('token') || SECRET_PARTS.some((part) => k.includes(part))) {
    return 'secret';
  }
  if (k.endsWith('cpf') || k.endsWith('taxid')) return 'cpf';
  if (k.endsWith('imei') || k.endsWith('imeis')) return 'imei';
  if (k.includes('phone') || k.includes('celular') || k.includes('telefone')) return 'phone';
  return undefined;
}
