// What every answer to hostile input must be: no 5xx, JSON, a valid envelope, and an error code from the catalog.
import { isKnownErrorCode, schemas } from '@fin/core';

export interface Answered {
  status: number;
  text: string;
}

/** Reads a Response once, for the checks below and for a failure message. */
export async function answered(response: Response): Promise<Answered> {
  return { status: response.status, text: await response.text() };
}

const describe = (answer: Answered) => `${answer.status} ${answer.text.slice(0, 300)}`;

/** An API answer (not the token endpoint): envelope on success, error envelope with a catalog code otherwise. */
export function assertEnvelope(answer: Answered): void {
  if (answer.status >= 500) throw new Error(`server error: ${describe(answer)}`);
  const body: unknown = JSON.parse(answer.text);
  if (answer.status < 300) {
    const parsed = schemas.envelope.safeParse(body);
    if (!parsed.success || parsed.data.success !== true)
      throw new Error(`not a success envelope: ${describe(answer)}`);
    return;
  }
  const parsed = schemas.errorEnvelope.safeParse(body);
  if (!parsed.success) throw new Error(`not an error envelope: ${describe(answer)}`);
  if (!isKnownErrorCode(parsed.data.error.code))
    throw new Error(`code not in the catalog: ${describe(answer)}`);
}

/** A token endpoint answer: RFC 6749 success body, or its error body carrying a catalog code. */
export function assertTokenAnswer(answer: Answered): void {
  if (answer.status >= 500) throw new Error(`server error: ${describe(answer)}`);
  const body: unknown = JSON.parse(answer.text);
  if (answer.status < 300) {
    if (!schemas.tokenResponse.safeParse(body).success) throw new Error(`not a token: ${describe(answer)}`);
    return;
  }
  const parsed = schemas.tokenErrorResponse.safeParse(body);
  if (!parsed.success) throw new Error(`not a token error: ${describe(answer)}`);
  if (parsed.data.code !== undefined && !isKnownErrorCode(parsed.data.code)) {
    throw new Error(`code not in the catalog: ${describe(answer)}`);
  }
}
