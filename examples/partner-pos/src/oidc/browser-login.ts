// The seller's browser, played over HTTP: opens the authorization URL, fills the partner's login page, follows redirects by hand to the callback.

/** What the seller types on the partner's page, or `cancel` to press its cancel button. */
export type SellerAtPage = { cpf: string; password: string } | 'cancel';

export interface BrowserLoginOptions {
  /** The browser's fetch (it trusts the provider's CA and presents no client certificate). */
  fetch: typeof fetch;
  /** The relying party's redirect URI: the walk stops at the first redirect there. */
  redirectUri: string;
  /** Most redirects followed before giving up; default 10. */
  maxRedirects?: number;
}

export interface BrowserLoginResult {
  /** The URL the provider sent the browser back to (code, state, iss; or error). */
  callbackUrl: string;
  /** The login page's alert when it answered a page instead of a redirect (wrong password, wrong store). */
  pageError?: string;
}

/** A cookie jar for one origin: enough for oidc-provider's interaction and session cookies. */
function cookieJar() {
  const cookies = new Map<string, string>();
  return {
    keep(response: Response) {
      // A fetch that joined several Set-Cookie headers with ", " is read too (an Expires date holds ", " but no "=").
      const lines = response.headers.getSetCookie().flatMap((line) => line.split(/,\s*(?=[^;,\s]+=)/));
      for (const line of lines) {
        const [pair = ''] = line.split(';');
        const at = pair.indexOf('=');
        cookies.set(pair.slice(0, at).trim(), pair.slice(at + 1).trim());
      }
    },
    header: () => [...cookies].map(([name, value]) => `${name}=${value}`).join('; '),
  };
}

const pageAlert = (html: string) => /<p role="alert" id="error">([^<]*)<\/p>/.exec(html)?.[1];

/**
 * Walks the login from the authorization URL `beginLogin` gave: GET it, follow redirects to the login page,
 * post the form (or cancel), follow redirects until one points at `redirectUri`. Resolves with that URL,
 * or with the page's error when the page answered again instead of redirecting.
 */
export async function loginAtPartnerPage(
  authorizationUrl: string,
  seller: SellerAtPage,
  options: BrowserLoginOptions,
): Promise<BrowserLoginResult> {
  const jar = cookieJar();
  const send = async (url: string, init: RequestInit = {}) => {
    const response = await options.fetch(url, {
      ...init,
      redirect: 'manual',
      headers: { ...(init.headers as Record<string, string>), cookie: jar.header() },
    });
    jar.keep(response);
    return response;
  };
  let url = authorizationUrl;
  let response = await send(url);
  let posted = false;
  for (let hop = 0; hop <= (options.maxRedirects ?? 10); hop += 1) {
    const location = response.headers.get('location');
    if (location) {
      await response.body?.cancel();
      url = new URL(location, url).href;
      if (url.startsWith(options.redirectUri)) return { callbackUrl: url };
      response = await send(url);
      continue;
    }
    const html = await response.text();
    if (posted) return { callbackUrl: '', pageError: pageAlert(html) ?? `HTTP ${response.status}` };
    posted = true;
    const body = seller === 'cancel' ? '' : new URLSearchParams(seller).toString();
    response = await send(`${url}/${seller === 'cancel' ? 'abort' : 'login'}`, {
      method: 'POST',
      body,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
  }
  throw new Error('too many redirects');
}
