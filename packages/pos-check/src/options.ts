// What fin-pos-check needs from the partner: its base URL, client credentials and the test data it provides.

import type { SellerCredentials } from '@fin/pos-client';
import type { CheckResult } from './report.js';

/** The TLS side of a check run (core's `tlsFetch` takes it): PEM text, as read from the files given on the command line. */
export interface CheckTls {
  /** Client certificate (PEM) presented to a partner that asks for one, with its `key`. */
  cert?: string;
  key?: string;
  passphrase?: string;
  /** The CA (PEM) that signed the partner's server certificate, when it is not a public one. */
  ca?: string;
}

export interface PosCheckOptions {
  /** The partner's host root; paths carry `/v1`. */
  baseUrl: string;
  clientId: string;
  clientSecret: string;
  /** A test seller's login: `{ cpf, password }` or `{ username, password }`. */
  seller: SellerCredentials;
  /** A test store (the test seller's). */
  storeId: string;
  /** A test device on the shelf of that store. */
  imei: string;
  /** The customer CPF of a test sale the partner registered. */
  saleTaxId: string;
  /** The barcode of an accessory of that store; without it the barcode check is skipped. */
  accessoryBarcode?: string;
  /**
   * Opt-in: check the 429 with `Retry-After` by spending the partner's read budget (`readsPerMinute`, the
   * spec's 600 unless the contract says otherwise) and one request more.
   */
  limits?: { readsPerMinute: number };
  /**
   * Mutual TLS (`--cert`, `--key`, `--ca`): the client certificate presented to a partner that requires
   * one, and the CA of its server certificate. Ignored when `fetch` is given.
   */
  tls?: CheckTls;
  /** Default the global fetch (over `tls` when given). */
  fetch?: (input: RequestInfo | URL, init?: RequestInit) => Promise<Response>;
  /** Told when a check starts and ends, for progress output. */
  onProgress?: (event: ProgressEvent) => void;
}

export type ProgressEvent =
  | { type: 'start'; id: string; title: string; index: number; total: number }
  | { type: 'end'; result: CheckResult; index: number; total: number };
