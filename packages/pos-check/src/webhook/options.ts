// What fin-pos-check needs to check a partner's webhook receiver: its URL and the secret it was given.

import type { ProgressEvent } from '../options.js';

export interface WebhookCheckOptions {
  /** The receiver's URL (the partner's staging). */
  url: string;
  /** The `whsec_...` secret the receiver verifies with. */
  secret: string;
  /** Default the global fetch. */
  fetch?: (input: RequestInfo | URL, init?: RequestInit) => Promise<Response>;
  /** Told when a check starts and ends, for progress output. */
  onProgress?: (event: ProgressEvent) => void;
}
