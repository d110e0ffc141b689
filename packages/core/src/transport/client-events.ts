// The request hooks of a client: `on('request' | 'response')` listeners told of every attempt, never of a body or a secret.
import type { RateClass } from '../endpoints/endpoint.js';
import type { TransportLog } from './transport-log.js';

/**
 * One attempt as it leaves. Only identifiers and the route template: never the path's ids, the query, a
 * header, the body, a token, a CPF or an IMEI.
 */
export interface RequestEvent {
  method: string;
  /** The registry's path template (`/v1/authorizations/{id}/confirm`), or the fixed token path. */
  route: string;
  /** Rate class of the call: `read`, `write` or `token`. */
  rate: RateClass;
  /** X-Request-Id of this attempt. */
  requestId: string;
  correlationId: string;
  /** 1 for the first attempt; a retry or a token replay counts up. */
  attempt: number;
}

/** One attempt as it ended: answered (`status`) or not (`error`, the failure's code), after `elapsedMs`. */
export interface ResponseEvent extends RequestEvent {
  /** HTTP status of the answer; undefined when none came (connection lost, timeout, abort). */
  status: number | undefined;
  /** Milliseconds from the request leaving to the whole answer read (or the failure), by the client's clock. */
  elapsedMs: number;
  /** Code of the failure without an answer (`connection_failed`, `timeout` ...), else undefined. */
  error: string | undefined;
}

export interface ClientEvents {
  request: RequestEvent;
  response: ResponseEvent;
}

export type ClientEventName = keyof ClientEvents;
export type ClientEventListener<E extends ClientEventName> = (event: ClientEvents[E]) => void;

/** The listeners of one client: `on`/`off` for its users, `emit` for its attempts. */
export interface ClientEventHub {
  on<E extends ClientEventName>(name: E, listener: ClientEventListener<E>): void;
  off<E extends ClientEventName>(name: E, listener: ClientEventListener<E>): void;
  emit<E extends ClientEventName>(name: E, event: ClientEvents[E]): void;
}

const NAMES: readonly ClientEventName[] = ['request', 'response'];

/**
 * Listeners run synchronously, in the order added, each on its own frozen copy of the event. One that
 * throws (or returns a rejected promise) is logged as `http.listener_failed` and the call goes on.
 */
export function createClientEvents(log: TransportLog): ClientEventHub {
  const listeners = {
    request: new Set<ClientEventListener<'request'>>(),
    response: new Set<ClientEventListener<'response'>>(),
  };
  const setOf = <E extends ClientEventName>(name: E) => {
    if (!NAMES.includes(name))
      throw new TypeError(`unknown client event '${String(name)}': 'request' or 'response'`);
    return listeners[name] as unknown as Set<ClientEventListener<E>>;
  };
  const failed = (name: ClientEventName, error: unknown) =>
    log('warn', {
      event: 'http.listener_failed',
      listener: name,
      error: error instanceof Error ? error.name : typeof error,
    });
  return {
    on: (name, listener) => void setOf(name).add(listener),
    off: (name, listener) => void setOf(name).delete(listener),
    emit(name, event) {
      const set = setOf(name);
      if (set.size === 0) return;
      for (const listener of set) {
        try {
          const returned: unknown = listener(Object.freeze(Object.assign({}, event)) as typeof event);
          if (returned instanceof Promise) returned.catch((error: unknown) => failed(name, error));
        } catch (error) {
          failed(name, error);
        }
      }
    },
  };
}
