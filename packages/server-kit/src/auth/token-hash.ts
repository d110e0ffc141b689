// Opaque system tokens: random 256-bit values, stored and looked up only by their SHA-256.
import { hash, randomBytes } from 'node:crypto';

export const newToken = (): string => randomBytes(32).toString('base64url');

/** One-shot SHA-256 (hex): the bearer of every API call is hashed to be looked up. */
export const hashToken = (token: string): string => hash('sha256', token, 'hex');
