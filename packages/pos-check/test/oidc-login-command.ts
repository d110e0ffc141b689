// A partner's --oidc-login-command, for the CLI test: logs the test seller in at the example provider's page over HTTP, prints the callback URL.
import { readFileSync } from 'node:fs';
import { loginAtPartnerPage } from '../../../examples/partner-pos/src/oidc/browser-login.js';
import { httpsFetch } from '../../../test/support/https-fetch.js';

const env = (name: string) => process.env[name] ?? '';
const { callbackUrl } = await loginAtPartnerPage(
  env('FIN_POS_CHECK_AUTHORIZATION_URL'),
  { cpf: env('TEST_SELLER_CPF'), password: env('TEST_SELLER_PASSWORD') },
  {
    fetch: httpsFetch({ ca: readFileSync(env('TEST_CA_FILE'), 'utf8') }),
    redirectUri: env('TEST_REDIRECT_URI'),
  },
);
process.stdout.write(`${callbackUrl}\n`);
