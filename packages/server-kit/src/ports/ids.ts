// Identifiers the service issues: a readable prefix and a random uuid, never guessable.
import { randomUUID } from 'node:crypto';

/**
 * `prefix` and a random uuid v4 as one flat string. `randomUUID()` assembles its text from twenty
 * pieces and a template literal adds one more, so the id would live on as a rope of cons strings: larger
 * to keep as a map key, and flattened again on the first lookup. `join` copies it into one string.
 */
export const newId = (prefix: string): string => [prefix, randomUUID()].join('');

export const newAuthorizationId = () => newId('auth_');
export const newContractId = () => newId('ctr_');
export const newProposalId = () => newId('prop_');
