// Client authentication at the token endpoint: HTTP Basic (RFC 6749 2.3.1, client_secret_basic) or the form (client_secret_post).
/** The form of a token request, as `URLSearchParams` or a `Map` holds it. */
interface TokenForm {
  get(name: string): string | null | undefined;
  has(name: string): boolean;
}

export type ClientAuthMethod = 'client_secret_basic' | 'client_secret_post';

export type ClientCredentials =
  | { ok: true; method: ClientAuthMethod; clientId: string | undefined; clientSecret: string | undefined }
  | { ok: false; description: string };

const BASIC = /^Basic\s+([A-Za-z0-9+/]+={0,2})\s*$/i;

/** RFC 6749 appendix B: each part was form-urlencoded before the pair was base64-encoded. */
function formDecode(part: string): string | undefined {
  try {
    return decodeURIComponent(part.replaceAll('+', ' '));
  } catch {
    return undefined;
  }
}

function decodeBasic(token: string): { clientId: string; clientSecret: string } | undefined {
  let text: string;
  try {
    const bytes = Uint8Array.from(atob(token), (char) => char.charCodeAt(0));
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return undefined;
  }
  const colon = text.indexOf(':');
  if (colon === -1) return undefined;
  const clientId = formDecode(text.slice(0, colon));
  const clientSecret = formDecode(text.slice(colon + 1));
  return clientId === undefined || clientSecret === undefined ? undefined : { clientId, clientSecret };
}

/**
 * The client's id and secret from `Authorization: Basic` or from the form. Using both methods in one request
 * (a Basic header and a `client_secret` field, or two different ids) is `invalid_request` (RFC 6749 2.3).
 * An `Authorization` header of another scheme is ignored, as it authenticates nothing here.
 */
export function clientCredentialsOf(
  authorization: string | null | undefined,
  form: TokenForm,
): ClientCredentials {
  const header = authorization?.trim() ?? '';
  if (!/^Basic(\s|$)/i.test(header)) {
    return {
      ok: true,
      method: 'client_secret_post',
      clientId: form.get('client_id') ?? undefined,
      clientSecret: form.get('client_secret') ?? undefined,
    };
  }
  const token = BASIC.exec(header)?.[1];
  const basic = token === undefined ? undefined : decodeBasic(token);
  if (!basic) {
    return { ok: false, description: 'The Basic credentials must be base64 of client_id:client_secret.' };
  }
  const formId = form.get('client_id');
  if (form.has('client_secret') || (formId != null && formId !== basic.clientId)) {
    return {
      ok: false,
      description: 'Use one client authentication method: HTTP Basic or client_secret in the form, not both.',
    };
  }
  return { ok: true, method: 'client_secret_basic', ...basic };
}
