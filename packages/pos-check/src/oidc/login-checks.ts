// The checks that need the test seller's login: the ID token's claims (SL-3), PKCE enforced, codes single-use, redirect_uri bound.
import { sellerIdTokenClaims } from '@fin/pos-client';
import { nopkce } from 'oauth4webapi';
import { issuesText, skip } from '../check.js';
import type { OidcCheck, OidcCheckContext } from './oidc-check.js';
import type { Authorized } from './relying-party.js';

const WHERE = 'token endpoint';
const ACR_VALUES = ['urn:brasil:openbanking:loa2', 'urn:brasil:openbanking:loa3'];

/** `HTTP 400 invalid_grant`: the status and the OAuth error code of an answer, never its body otherwise. */
async function answerOf(response: Response): Promise<{ status: number; error?: string }> {
  const body = await response.text().catch(() => '');
  let error: unknown;
  try {
    error = (JSON.parse(body) as { error?: unknown }).error;
  } catch {}
  const code = typeof error === 'string' && /^[\w.-]{1,64}$/.test(error) ? error : undefined;
  return { status: response.status, ...(code && { error: code }) };
}

/** Records a violation unless the token endpoint refused with `invalid_grant`. */
async function expectInvalidGrant(
  context: OidcCheckContext,
  response: Response,
  situation: string,
  fix: string,
) {
  const { status, error } = await answerOf(response);
  if (status === 400 && error === 'invalid_grant') return;
  context.violation(
    WHERE,
    `${situation}: expected HTTP 400 invalid_grant, got HTTP ${status}${error ? ` ${error}` : ''}`,
    fix,
  );
}

async function idTokenClaims(context: OidcCheckContext) {
  const rp = context.relyingParty();
  const authorized = await rp.authorize();
  const response = await rp.redeem(authorized, {
    codeVerifier: authorized.codeVerifier,
    redirectUri: rp.redirectUri,
  });
  if (response.status !== 200) {
    const { status, error } = await answerOf(response.clone());
    context.violation(
      WHERE,
      `a correct redemption of the code was refused: HTTP ${status}${error ? ` ${error}` : ''}`,
      'check the client registration given to fin-pos-check, then that the token endpoint accepts the verifier of the pushed S256 challenge',
    );
    return;
  }
  context.facts.redeemed = authorized;
  const claims = await rp.idTokenClaims(authorized, response);
  const parsed = sellerIdTokenClaims.safeParse(claims);
  if (!parsed.success) {
    context.violation(
      'ID token',
      `claims missing or malformed: ${issuesText(parsed.error, 'claims')}`,
      "put the seller claims of SL-3 in the ID token: cpf 11 digits, store_cnpj 14 characters, store_address the spec's Address, no masks",
    );
  }
  if (claims.acr !== undefined && !ACR_VALUES.includes(String(claims.acr))) {
    context.finding(
      'ID token',
      'acr is neither urn:brasil:openbanking:loa2 nor loa3',
      'state the assurance level of the login in acr (loa2 for CPF and password)',
    );
  }
  if (typeof claims.auth_time !== 'number') {
    context.finding('ID token', 'no auth_time', 'state when the seller authenticated in auth_time');
  }
}

async function codeSingleUse(context: OidcCheckContext) {
  const rp = context.relyingParty();
  const redeemed: Authorized | undefined = context.facts.redeemed;
  if (!redeemed) return skip('no code was redeemed (see oidc.id-token-claims)');
  const again = await rp.redeem(redeemed, {
    codeVerifier: redeemed.codeVerifier,
    redirectUri: rp.redirectUri,
  });
  await expectInvalidGrant(
    context,
    again,
    'the code already redeemed was sent again',
    'make authorization codes single-use (and revoke the tokens issued from a code sent twice)',
  );
}

async function pkceEnforced(context: OidcCheckContext) {
  const rp = context.relyingParty();
  const fix =
    'check the code_verifier against the pushed code_challenge (S256) and refuse a missing or wrong one';
  const missing = await rp.authorize();
  await expectInvalidGrant(
    context,
    await rp.redeem(missing, { codeVerifier: nopkce, redirectUri: rp.redirectUri }),
    'a token request without code_verifier',
    fix,
  );
  const wrong = await rp.authorize();
  const other = `${wrong.codeVerifier.slice(1)}x`;
  await expectInvalidGrant(
    context,
    await rp.redeem(wrong, { codeVerifier: other, redirectUri: rp.redirectUri }),
    'a token request with a wrong code_verifier',
    fix,
  );
}

async function redirectUriBound(context: OidcCheckContext) {
  const rp = context.relyingParty();
  const authorized = await rp.authorize();
  const elsewhere = new URL('/fin-pos-check-mismatch', rp.redirectUri).href;
  await expectInvalidGrant(
    context,
    await rp.redeem(authorized, { codeVerifier: authorized.codeVerifier, redirectUri: elsewhere }),
    'a token request with a redirect_uri other than the pushed one',
    "refuse a token request whose redirect_uri differs from the authorization request's",
  );
}

export const loginChecks: readonly OidcCheck[] = [
  {
    id: 'oidc.id-token-claims',
    title: 'Login: the ID token verifies and carries the seller claims (SL-3)',
    run: idTokenClaims,
  },
  {
    id: 'oidc.code-single-use',
    title: 'Login: a code redeemed once is refused the second time',
    run: codeSingleUse,
  },
  {
    id: 'oidc.pkce-enforced',
    title: 'Login: no code_verifier or a wrong one is invalid_grant',
    run: pkceEnforced,
  },
  {
    id: 'oidc.redirect-uri-bound',
    title: 'Login: a redirect_uri mismatch is refused',
    run: redirectUriBound,
  },
];
