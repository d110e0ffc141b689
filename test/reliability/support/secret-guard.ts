// Fails a test when a secret it used (CPF, IMEI, password, client secret, token) shows in clear in any log output or telemetry.
import type { LogEntry, Logger } from '@fin/core';
import { afterAll, afterEach, beforeAll } from 'vitest';

export type SecretKind = 'cpf' | 'imei' | 'password' | 'client secret' | 'token';

export interface Leak {
  kind: SecretKind;
  /** Where it showed: `stdout`, `stderr`, `console.warn`, `logger.info` ... */
  channel: string;
}

interface Capture {
  channel: string;
  text: string;
}

/** The ways a secret can be written in clear: a CPF also with its mask punctuation (123.456.789-09). */
function clearForms(kind: SecretKind, value: string): string[] {
  if (kind === 'cpf' && /^\d{11}$/.test(value)) {
    return [value, `${value.slice(0, 3)}.${value.slice(3, 6)}.${value.slice(6, 9)}-${value.slice(9)}`];
  }
  return [value];
}

/** Every secret found in clear in `captures`; the secret itself is never part of the answer. */
export function findLeaks(captures: readonly Capture[], secrets: ReadonlyMap<string, SecretKind>): Leak[] {
  const leaks: Leak[] = [];
  for (const [value, kind] of secrets) {
    const forms = clearForms(kind, value);
    for (const { channel, text } of captures) {
      if (forms.some((form) => text.includes(form))) leaks.push({ kind, channel });
    }
  }
  return leaks;
}

export interface SecretGuard {
  /** Values this suite uses that must never be logged in clear. Tokens shorter than 8 characters are ignored. */
  add(kind: SecretKind, ...values: string[]): void;
  /** A Logger that records every entry (as JSON) for the check: give it to every client and service. */
  readonly logger: Logger;
  /** Wraps a fetch so that every `access_token` it carries back is added to the secrets. */
  sniffTokens(inner: typeof fetch): typeof fetch;
  /** Text captured since the last check, for a test that wants to see what was logged. */
  captured(): readonly Capture[];
  /**
   * Another channel searched after each test, `read` giving its text then (the spans and metrics an
   * in-memory OpenTelemetry exporter holds, say).
   */
  watch(channel: string, read: () => string | Promise<string>): void;
}

const CONSOLE_METHODS = ['log', 'info', 'warn', 'error', 'debug', 'trace'] as const;

/**
 * Installs the capture for the calling test file: process stdout and stderr writes, console methods and the
 * returned logger. After each test the captures are searched for every secret added so far; a secret in
 * clear fails that test, naming the kind of secret and the channel, never the value.
 */
export function guardSecrets(): SecretGuard {
  const secrets = new Map<string, SecretKind>();
  const captures: Capture[] = [];
  const restore: (() => void)[] = [];
  const watched: { channel: string; read: () => string | Promise<string> }[] = [];
  const record = (channel: string, text: string) => captures.push({ channel, text });

  const add = (kind: SecretKind, ...values: string[]) => {
    for (const value of values) if (value.length >= 8) secrets.set(value, kind);
  };

  const entryWriter = (level: string) => (entry: LogEntry) =>
    record(`logger.${level}`, JSON.stringify(entry));
  const logger: Logger = {
    debug: entryWriter('debug'),
    info: entryWriter('info'),
    warn: entryWriter('warn'),
    error: entryWriter('error'),
  };

  beforeAll(() => {
    for (const stream of ['stdout', 'stderr'] as const) {
      const target = process[stream];
      const original = target.write;
      target.write = function write(chunk: unknown, ...rest: unknown[]) {
        record(stream, typeof chunk === 'string' ? chunk : Buffer.from(chunk as Uint8Array).toString('utf8'));
        return (original as (...args: unknown[]) => boolean).call(target, chunk, ...rest);
      } as typeof target.write;
      restore.push(() => {
        target.write = original;
      });
    }
    for (const method of CONSOLE_METHODS) {
      const original = console[method];
      console[method] = (...args: unknown[]) => {
        record(
          `console.${method}`,
          args.map((arg) => (typeof arg === 'string' ? arg : safeJson(arg))).join(' '),
        );
        original.apply(console, args);
      };
      restore.push(() => {
        console[method] = original;
      });
    }
  });

  afterEach(async () => {
    for (const { channel, read } of watched) record(channel, await read());
    const leaks = findLeaks(captures, secrets);
    captures.length = 0;
    if (leaks.length > 0) {
      const where = leaks.map((leak) => `${leak.kind} in ${leak.channel}`).join(', ');
      throw new Error(`secret in clear in the log output: ${where}`);
    }
  });

  afterAll(() => {
    for (const undo of restore.splice(0).reverse()) undo();
  });

  return {
    add,
    logger,
    captured: () => captures,
    watch: (channel, read) => {
      watched.push({ channel, read });
    },
    sniffTokens: (inner) => async (input, init) => {
      const response = await inner(input, init);
      if (new URL(input instanceof Request ? input.url : String(input)).pathname.endsWith('/oauth/token')) {
        const body = (await response
          .clone()
          .json()
          .catch(() => undefined)) as { access_token?: unknown } | undefined;
        if (typeof body?.access_token === 'string') add('token', body.access_token);
      }
      return response;
    },
  };
}

/** JSON of a console argument, errors included (their message and stack), cycles tolerated. */
function safeJson(value: unknown): string {
  if (value instanceof Error) return `${value.name}: ${value.message}\n${value.stack ?? ''}`;
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}
