// The partner's own login page (oidc-provider interaction routes): the seller types CPF and password here, never at the financing service.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { SimulatedPos, SimulatedSeller } from '@fin/pos-client/testing';
import type Provider from 'oidc-provider';

/** Where the provider sends the browser to log in: `/interaction/<uid>`; the form posts to `.../login` or `.../abort`. */
export const INTERACTION_PATH = /^\/interaction\/([\w-]+)(?:\/(login|abort))?$/;

/** The assurance level of a CPF + password login (Open Finance Brasil's LoA 2). */
export const PASSWORD_ACR = 'urn:brasil:openbanking:loa2';

/** The largest form body the page reads; a longer one is refused. */
const MAX_FORM_BYTES = 4096;

const FAILED_LOGIN = 'CPF, usuário ou senha inválidos.';
const WRONG_STORE = 'Este vendedor não trabalha na loja pedida.';

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** The page: a plain HTML form, CPF and password, and a cancel button. */
export function loginPageHtml(uid: string, storeId: string | undefined, error?: string): string {
  const action = `/interaction/${escapeHtml(uid)}`;
  return `<!doctype html>
<html lang="pt-BR"><head><meta charset="utf-8"><title>Entrar no PDV</title></head>
<body><main>
<h1>Entrar no PDV</h1>
${storeId ? `<p>Loja: <span id="store">${escapeHtml(storeId)}</span></p>` : ''}
${error ? `<p role="alert" id="error">${escapeHtml(error)}</p>` : ''}
<form method="post" action="${action}/login" autocomplete="off">
<label>CPF <input id="cpf" name="cpf" inputmode="numeric" required></label>
<label>Senha <input id="password" name="password" type="password" required></label>
<button id="submit" type="submit">Entrar</button>
</form>
<form method="post" action="${action}/abort"><button id="cancel" type="submit">Cancelar</button></form>
</main></body></html>`;
}

async function readForm(req: IncomingMessage): Promise<URLSearchParams> {
  let text = '';
  for await (const chunk of req) {
    text += chunk;
    if (text.length > MAX_FORM_BYTES) throw new Error('form too large');
  }
  return new URLSearchParams(text);
}

function sendHtml(res: ServerResponse, status: number, html: string): void {
  res.writeHead(status, {
    'content-type': 'text/html; charset=utf-8',
    'cache-control': 'no-store',
    'x-frame-options': 'DENY',
  });
  res.end(html);
}

export interface LoginPageContext {
  provider: Provider;
  sim: SimulatedPos;
  /** The store each grant was issued for, read again when the ID token and userinfo are made. */
  storeOfGrant: Map<string, string>;
}

/** The seller whose CPF (digits, any mask) and password match, or none. */
function sellerOf(sim: SimulatedPos, form: URLSearchParams): SimulatedSeller | undefined {
  const cpf = (form.get('cpf') ?? '').replace(/\D/g, '');
  const seller = sim.data.sellers.find((candidate) => candidate.cpf === cpf);
  return seller && seller.password === form.get('password') ? seller : undefined;
}

/** A finished login: a grant of the asked scope for this client, tied to the store, then back to the provider. */
async function finishLogin(
  context: LoginPageContext,
  req: IncomingMessage,
  res: ServerResponse,
  seller: SimulatedSeller,
  params: Record<string, unknown>,
): Promise<void> {
  const { provider, storeOfGrant } = context;
  const grant = new provider.Grant({ accountId: seller.sellerId, clientId: String(params.client_id) });
  grant.addOIDCScope(String(params.scope ?? 'openid'));
  const grantId = await grant.save();
  storeOfGrant.set(grantId, seller.storeId);
  await provider.interactionFinished(
    req,
    res,
    { login: { accountId: seller.sellerId, acr: PASSWORD_ACR, amr: ['pwd'] }, consent: { grantId } },
    { mergeWithLastSubmission: false },
  );
}

/** Answers `/interaction/<uid>[/login|/abort]`; the caller checked the path with INTERACTION_PATH. */
export async function handleLoginPage(
  context: LoginPageContext,
  req: IncomingMessage,
  res: ServerResponse,
  action: string | undefined,
): Promise<void> {
  const { provider, sim } = context;
  const details = await provider.interactionDetails(req, res);
  const asked = typeof details.params.store_id === 'string' ? details.params.store_id : undefined;
  if (req.method === 'GET' && !action) return sendHtml(res, 200, loginPageHtml(details.uid, asked));
  if (req.method !== 'POST' || !action) return sendHtml(res, 405, 'Method not allowed');
  const form = await readForm(req);
  if (action === 'abort') {
    const result = { error: 'access_denied', error_description: 'the seller cancelled the login' };
    return provider.interactionFinished(req, res, result, { mergeWithLastSubmission: false });
  }
  const seller = sellerOf(sim, form);
  if (!seller) return sendHtml(res, 200, loginPageHtml(details.uid, asked, FAILED_LOGIN));
  if (asked !== undefined && asked !== seller.storeId) {
    return sendHtml(res, 200, loginPageHtml(details.uid, asked, WRONG_STORE));
  }
  return finishLogin(context, req, res, seller, details.params);
}
