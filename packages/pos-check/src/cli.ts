// fin-pos-check: the command a POS vendor runs against its staging to check its Partner POS API against the contract.
import { readFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { cpf, imei } from '@fin/core';
import type { SellerCredentials } from '@fin/pos-client';
import { displayUrl } from './mask.js';
import { type OidcCliOptions, oidcCheckOptions, oidcCliOptions } from './oidc/cli-options.js';
import { runOidcCheck } from './oidc/run.js';
import type { PosCheckOptions, ProgressEvent } from './options.js';
import { junitReport } from './reporters/junit.js';
import { progressLine, terminalReport } from './reporters/terminal.js';
import { runPosCheck } from './run-checks.js';
import { webhookOptions } from './webhook/cli-options.js';
import type { WebhookCheckOptions } from './webhook/options.js';
import { runWebhookCheck } from './webhook/run.js';

const USAGE = `Usage: fin-pos-check --base-url <url> --client-id <id> --client-secret <secret>
                     (--seller-cpf <cpf> | --seller-username <name>) --seller-password <password>
                     --store-id <id> --imei <imei> --sale-cpf <cpf> [--accessory-barcode <barcode>]
                     [--cert <file> --key <file>] [--ca <file>]
                     [--limits [--read-limit 600]] [--json] [--junit <file>]
       fin-pos-check --webhook-url <url> --webhook-secret <whsec_...> [--json] [--junit <file>]
       fin-pos-check --oidc <issuer> [--oidc-client-id <id> --oidc-redirect-uri <uri>
                     (--oidc-private-key <jwk> --oidc-dpop-key <jwk> | --cert <file> --key <file>)
                     --oidc-login-command <command>] [--ca <file>] [--json] [--junit <file>]

Checks a Partner POS API against the contract (docs/openapi/partner-pos.json), read-only: OAuth, the
envelope and requestId, X-Processing-Time-Ms, R-01, pagination, Money, R-03, R-04, R-05, stock, sale
search and the errors of spec section 7. The partner provides the test data: a seller who can log in,
that seller's store, a device (IMEI) on its shelf, the CPF of a registered sale, an accessory barcode.

  --webhook-url     check the partner's webhook receiver instead (Standard Webhooks v1): it must accept a
                    signed delivery, a two-signature rotation and an unknown event type with a 2xx within
                    15 s, and refuse unsigned, wrong-secret, altered, stale and future-dated deliveries
  --oidc            check the partner's OpenID Provider instead (seller login, spec v2.0): its discovery
                    document (PAR, PKCE S256, iss, client authentication, bound tokens, ID token
                    algorithms); with a client registration and a login command also PKCE enforced, codes
                    single-use, redirect_uri bound and the ID token's seller claims (four logins)
  --oidc-private-key, --oidc-dpop-key
                    private_key_jwt: our client's private JWK (with its kid) and the DPoP key's (JSON files);
                    without them the client authenticates by --cert/--key (tls_client_auth)
  --oidc-login-command
                    run through the shell once per login, the authorization URL in
                    FIN_POS_CHECK_AUTHORIZATION_URL: it logs the test seller in at your page (a headless
                    browser of yours) and prints the URL your provider redirected to, as its last line
  --cert, --key     mutual TLS: the client certificate and its key (PEM files) to present to a partner
                    that requires one; a key passphrase comes from FIN_POS_CHECK_KEY_PASSPHRASE
  --ca              the CA (PEM file) of the partner's server certificate, when it is a private one
                    A partner served over plain HTTP, or agreeing TLS below 1.2, is reported as a finding.
  --limits          also check the 429 with Retry-After: spends the read budget (--read-limit a minute,
                    default the spec's 600) plus one request; run it last, on staging
  --json            print the report as JSON on stdout (progress goes to stderr)
  --junit <file>    also write a JUnit XML report for CI

Secrets may come from the environment instead of the command line: FIN_POS_CHECK_CLIENT_SECRET,
FIN_POS_CHECK_SELLER_PASSWORD, FIN_POS_CHECK_WEBHOOK_SECRET, FIN_POS_CHECK_KEY_PASSPHRASE. Nothing secret or personal is printed: CPFs and IMEIs are masked.
Exit code: 0 when no check found a violation (findings do not fail), 1 otherwise, 2 on a usage error.
`;

class UsageError extends Error {}

type Output = { json: boolean; junit?: string };
type CliOptions =
  | (PosCheckOptions & Output)
  | ({ webhook: WebhookCheckOptions } & Output)
  | ({ oidc: OidcCliOptions } & Output);

function optionsFrom(argv: string[]): CliOptions | 'help' {
  const { values } = parseArgs({
    args: argv,
    options: {
      'base-url': { type: 'string' },
      'client-id': { type: 'string' },
      'client-secret': { type: 'string' },
      'seller-cpf': { type: 'string' },
      'seller-username': { type: 'string' },
      'seller-password': { type: 'string' },
      'store-id': { type: 'string' },
      imei: { type: 'string' },
      'sale-cpf': { type: 'string' },
      'accessory-barcode': { type: 'string' },
      cert: { type: 'string' },
      key: { type: 'string' },
      ca: { type: 'string' },
      limits: { type: 'boolean' },
      'read-limit': { type: 'string' },
      json: { type: 'boolean' },
      junit: { type: 'string' },
      'webhook-url': { type: 'string' },
      'webhook-secret': { type: 'string' },
      oidc: { type: 'string' },
      'oidc-client-id': { type: 'string' },
      'oidc-redirect-uri': { type: 'string' },
      'oidc-private-key': { type: 'string' },
      'oidc-dpop-key': { type: 'string' },
      'oidc-login-command': { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) return 'help';
  const need = (name: keyof typeof values, fallback?: string) => {
    const value = (values[name] as string | undefined) ?? fallback;
    if (!value) throw new UsageError(`--${name} is required`);
    return value;
  };
  const output = { json: values.json ?? false, ...(values.junit && { junit: values.junit }) };
  if (values['webhook-url'] !== undefined) {
    const secret = need('webhook-secret', process.env.FIN_POS_CHECK_WEBHOOK_SECRET);
    return { webhook: webhookOptions(values['webhook-url'], secret, UsageError), ...output };
  }
  if (values.oidc !== undefined) {
    return { oidc: oidcCliOptions(values, tlsOptions(values).tls, UsageError), ...output };
  }
  const password = need('seller-password', process.env.FIN_POS_CHECK_SELLER_PASSWORD);
  const sellerCpf = values['seller-cpf'];
  const username = values['seller-username'];
  if (!sellerCpf === !username) throw new UsageError('give exactly one of --seller-cpf or --seller-username');
  if (sellerCpf !== undefined && !/^\d{11}$/.test(sellerCpf))
    throw new UsageError('--seller-cpf must be 11 digits, no mask');
  const seller: SellerCredentials = sellerCpf
    ? { cpf: sellerCpf, password }
    : { username: username!, password };
  const device = need('imei');
  if (!imei.isValid(device)) throw new UsageError('--imei must be 15 digits with a valid check digit');
  const saleCpf = need('sale-cpf');
  if (!cpf.isValid(saleCpf)) throw new UsageError('--sale-cpf must be a valid CPF, 11 digits, no mask');
  const baseUrl = need('base-url');
  if (!URL.canParse(baseUrl))
    throw new UsageError('--base-url must be a URL such as https://pos.example.com');
  const { username: urlUser, password: urlPassword } = new URL(baseUrl);
  if (urlUser || urlPassword) throw new UsageError('--base-url must not carry credentials (user:password@)');
  const readLimit = Number(values['read-limit'] ?? 600);
  if (!Number.isSafeInteger(readLimit) || readLimit < 1)
    throw new UsageError('--read-limit must be a positive integer');
  return {
    baseUrl,
    clientId: need('client-id'),
    clientSecret: need('client-secret', process.env.FIN_POS_CHECK_CLIENT_SECRET),
    seller,
    storeId: need('store-id'),
    imei: device,
    saleTaxId: saleCpf,
    ...(values['accessory-barcode'] && { accessoryBarcode: values['accessory-barcode'] }),
    ...(values.limits && { limits: { readsPerMinute: readLimit } }),
    ...tlsOptions(values),
    ...output,
  };
}

/** `--cert`/`--key`/`--ca` read as PEM text: both of cert and key or neither, each a readable file. */
function tlsOptions(values: { cert?: string; key?: string; ca?: string }): Pick<PosCheckOptions, 'tls'> {
  if ((values.cert === undefined) !== (values.key === undefined))
    throw new UsageError('give --cert and --key together (the client certificate and its private key)');
  const read = (flag: string, file: string | undefined) => {
    if (file === undefined) return {};
    try {
      return { [flag]: readFileSync(file, 'utf8') };
    } catch (error) {
      throw new UsageError(`--${flag} ${file}: ${(error as NodeJS.ErrnoException).code ?? 'unreadable'}`);
    }
  };
  const tls = { ...read('cert', values.cert), ...read('key', values.key), ...read('ca', values.ca) };
  const passphrase = process.env.FIN_POS_CHECK_KEY_PASSPHRASE;
  if (Object.keys(tls).length === 0) return {};
  return { tls: { ...tls, ...(passphrase ? { passphrase } : {}) } };
}

async function main(): Promise<number> {
  let options: ReturnType<typeof optionsFrom>;
  try {
    options = optionsFrom(process.argv.slice(2));
  } catch (error) {
    process.stderr.write(
      `fin-pos-check: ${error instanceof Error ? error.message : String(error)}\n\n${USAGE}`,
    );
    return 2;
  }
  if (options === 'help') {
    process.stdout.write(USAGE);
    return 0;
  }
  const progress = options.json ? process.stderr : process.stdout;
  const onProgress = (event: ProgressEvent) => {
    const line = progressLine(event);
    if (line) progress.write(`${line}\n`);
  };
  const target =
    'webhook' in options ? options.webhook.url : 'oidc' in options ? options.oidc.issuer : options.baseUrl;
  progress.write(`fin-pos-check: checking ${displayUrl(target)}\n`);
  const report =
    'webhook' in options
      ? await runWebhookCheck({ ...options.webhook, onProgress })
      : 'oidc' in options
        ? await runOidcCheck({ ...(await oidcCheckOptions(options.oidc)), onProgress })
        : await runPosCheck({ ...options, onProgress });
  if (options.junit) await writeFile(options.junit, junitReport(report));
  process.stdout.write(options.json ? `${JSON.stringify(report, null, 2)}\n` : terminalReport(report));
  return report.exitCode;
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    // The message only: no stack, no request, nothing that could carry a credential.
    process.stderr.write(`fin-pos-check: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 1;
  },
);
