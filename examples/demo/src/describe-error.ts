// One line saying why something failed, fit for the timeline: the API's code and status when there is one, never a secret.
import { isFinApiError, redactText } from '@fin/core';

export function describeError(error: unknown): string {
  if (isFinApiError(error)) return redactText(`${error.code} (HTTP ${error.status}): ${error.message}`);
  if (error instanceof Error) {
    const code = (error as { code?: unknown }).code;
    const name = error.name === 'Error' ? '' : `${error.name}${typeof code === 'string' ? ` ${code}` : ''}: `;
    return redactText(`${name}${error.message}`);
  }
  return redactText(String(error));
}
