// The CLI's login hook: the partner's own command logs its test seller in at the authorization URL and prints the callback URL.
import { spawn } from 'node:child_process';
import type { OidcLogin } from './options.js';

/** The command's time to log in (its browser, its page). */
export const LOGIN_COMMAND_TIMEOUT_MS = 120_000;
/** The most of its output read: a callback URL is short. */
const MAX_OUTPUT_BYTES = 64 * 1024;

/**
 * Runs `command` through the shell with the authorization URL in `FIN_POS_CHECK_AUTHORIZATION_URL`; resolves
 * with the last line it prints on stdout (the URL the provider redirected to). The command's stderr is not
 * shown: it may hold the test seller's credentials or the code.
 */
export function commandLogin(command: string): OidcLogin {
  return (authorizationUrl) =>
    new Promise((resolve, reject) => {
      const child = spawn(command, {
        shell: true,
        stdio: ['ignore', 'pipe', 'ignore'],
        env: { ...process.env, FIN_POS_CHECK_AUTHORIZATION_URL: authorizationUrl },
        timeout: LOGIN_COMMAND_TIMEOUT_MS,
      });
      let output = '';
      child.stdout.on('data', (chunk: Buffer) => {
        output += chunk.toString('utf8');
        if (output.length > MAX_OUTPUT_BYTES) child.kill();
      });
      child.on('error', () => reject(new Error('the login command could not be started')));
      child.on('close', (code) => {
        const last = output.trim().split('\n').at(-1)?.trim() ?? '';
        if (code === 0 && URL.canParse(last)) return resolve(last);
        reject(
          new Error(`the login command ended with ${code ?? 'a signal'} without printing the callback URL`),
        );
      });
    });
}
