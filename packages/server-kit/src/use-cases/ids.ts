// Identifiers the service issues: a readable prefix and a random uuid, never guessable.
import { randomUUID } from 'node:crypto';

export const newAuthorizationId = () => `auth_${randomUUID()}`;
export const newContractId = () => `ctr_${randomUUID()}`;
export const newProposalId = () => `prop_${randomUUID()}`;
