// What a response says happened: `authorized`, `declined`, `ok`, or the error code; read by the log line and the metrics.
import type { PlainResponse } from './plain.js';

interface AnswerBody {
  error?: { code?: string } | string | null;
  code?: string;
  data?: { authorized?: boolean; declineReason?: string } | null;
}

/** `authorized`, `declined`, `ok`, or the error code (the token endpoint's travels in `code`). */
export function outcomeOf(response: PlainResponse): string {
  const body = response.body as AnswerBody | null;
  if (typeof body?.error === 'string') return body.code ?? body.error;
  if (body?.error) return body.error.code ?? 'error';
  if (body?.data?.authorized !== undefined) return body.data.authorized ? 'authorized' : 'declined';
  return 'ok';
}

/** The `declineReason` of a declined authorization, else `undefined`. */
export function declineReasonOf(response: PlainResponse): string | undefined {
  const data = (response.body as AnswerBody | null)?.data;
  return data?.authorized === false ? data.declineReason : undefined;
}
