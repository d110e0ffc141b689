// The runner of `fin-pos-check --oidc`: reads the provider's discovery, runs each check in order and builds the report.
import { redactText } from '@fin/core';
import { tlsFetch } from '@fin/core/transport';
import { skip } from '../check.js';
import { errorText } from '../error-text.js';
import { displayUrl } from '../mask.js';
import {
  type CheckReport,
  type CheckResult,
  CheckSkipped,
  checkResult,
  type Problem,
  reportOf,
} from '../report.js';
import { discoveryChecks } from './discovery-checks.js';
import { loginChecks } from './login-checks.js';
import type { OidcCheck, OidcCheckContext } from './oidc-check.js';
import type { OidcCheckOptions } from './options.js';
import { discover, relyingParty } from './relying-party.js';

const discovery: OidcCheck = {
  id: 'oidc.discovery',
  title: 'Discovery: the document is served and names the issuer',
  async run(context) {
    context.facts.metadata = await discover(context.options.issuer, context.send);
  },
};

/** Every check of `--oidc`, in the order they run. */
export const oidcChecks: readonly OidcCheck[] = [discovery, ...discoveryChecks, ...loginChecks];

const NO_CLIENT =
  'no client registration and login given (--oidc-client-id, --oidc-redirect-uri, a key or certificate, --oidc-login-command)';

/** A failure as a report line: oauth4webapi's message and the provider's OAuth `error` code, never its free text. */
function failureText(error: unknown): string {
  const code = error instanceof Error ? (error as { error?: unknown }).error : undefined;
  const oauthCode = typeof code === 'string' && /^[\w.-]{1,64}$/.test(code) ? ` (${code})` : '';
  return redactText(`${errorText(error)}${oauthCode}`);
}

/** Runs every check in order and reports; never throws for a provider's fault. No secret or token appears in the report. */
export async function runOidcCheck(options: OidcCheckOptions): Promise<CheckReport> {
  const kept = !options.fetch && options.tls ? tlsFetch(options.tls) : undefined;
  const send = kept ?? options.fetch ?? globalThis.fetch;
  try {
    return await runWith(options, send);
  } finally {
    await kept?.close();
  }
}

async function runWith(options: OidcCheckOptions, fetchImpl: NonNullable<OidcCheckOptions['fetch']>) {
  const startedAt = new Date().toISOString();
  let requests = 0;
  const send: typeof fetchImpl = (input, init) => {
    requests += 1;
    return fetchImpl(input, init);
  };
  const facts: OidcCheckContext['facts'] = {};
  const metadata = () =>
    facts.metadata ?? skip('the discovery document could not be read (see oidc.discovery)');
  let party: ReturnType<typeof relyingParty> | undefined;
  const relying = () => {
    if (!options.client || !options.login) return skip(NO_CLIENT);
    party ??= relyingParty(metadata(), options.client, options.login, send);
    return party;
  };
  const results: CheckResult[] = [];
  for (const [index, check] of oidcChecks.entries()) {
    options.onProgress?.({
      type: 'start',
      id: check.id,
      title: check.title,
      index,
      total: oidcChecks.length,
    });
    const problems: Problem[] = [];
    const record = (severity: Problem['severity']) => (where: string, message: string, fix: string) =>
      problems.push({ severity, where, message: redactText(message), fix });
    const context: OidcCheckContext = {
      options,
      send,
      facts,
      metadata,
      relyingParty: relying,
      violation: record('violation'),
      finding: record('finding'),
    };
    const started = performance.now();
    let skipped: string | undefined;
    try {
      await check.run(context);
    } catch (error) {
      if (error instanceof CheckSkipped) skipped = error.message;
      else
        record('violation')(
          check.id.startsWith('oidc.discovery') ? 'discovery' : 'login',
          failureText(error),
          'see the message: the provider answered what an OpenID Provider on FAPI 2.0 must not, or not at all (check --oidc and that it is reachable from here)',
        );
    }
    const result = checkResult(check, problems, skipped, started);
    results.push(result);
    options.onProgress?.({ type: 'end', result, index, total: oidcChecks.length });
  }
  return reportOf({ baseUrl: displayUrl(options.issuer), startedAt, results, requests });
}
