// Fault injection for the simulated partner: 5xx bursts, slow responses and malformed JSON, per endpoint; deliberate contract breaks.
import type { ContractBreak } from './contract-breaks.js';
import type { PosEndpoint } from './endpoints.js';

interface FaultScope {
  /** Only this endpoint; omitted, every endpoint but the token endpoint (ask for that one by name). */
  endpoint?: PosEndpoint;
  /** Let this many matching requests through untouched first (to strike in the middle of a sync). */
  after?: number;
  /** How many matching requests the fault hits; default 1 (`Infinity` for all of them). */
  count?: number;
}

type Rule =
  | { kind: 'server-error'; status: number; scope: FaultScope }
  | { kind: 'slow'; delayMs: number; scope: FaultScope }
  | { kind: 'malformed-json'; scope: FaultScope };

/** What the simulation does to one request before (or instead of) answering it. */
export interface FaultPlan {
  delayMs: number;
  /** Answer with this 5xx instead of the real answer. */
  serverError?: number;
  /** Answer 200 with a body cut off in the middle. */
  malformedJson?: boolean;
}

/** The controls a test turns; each call adds a rule, and rules run out after `count` hits. */
export interface FaultControls {
  /** The next `count` matching requests answer `status` (default 503) with the error envelope. */
  serverErrors(options?: FaultScope & { status?: 500 | 502 | 503 | 504 }): void;
  /** The next `count` matching requests wait `delayMs` (aborted with the request) before their real answer. */
  slowResponses(options: FaultScope & { delayMs: number }): void;
  /** The next `count` matching requests answer 200 with JSON cut off in the middle. */
  malformedJson(options?: FaultScope): void;
  /**
   * Breaks the contract the way a partner can get it wrong (`'token-cacheable'`, `'store-context-422'`,
   * `'money-as-decimal-text'` ...), on every matching answer until `clear()`: for testing a conformance
   * check such as fin-pos-check. The names are `contractBreaks`.
   */
  breakContract(...breaks: ContractBreak[]): void;
  /** Drops every rule not yet used up, and every contract break. */
  clear(): void;
}

export function createFaults() {
  const rules: { rule: Rule; after: number; remaining: number }[] = [];
  const contractBreaks = new Set<ContractBreak>();
  const add = (rule: Rule) =>
    rules.push({ rule, after: rule.scope.after ?? 0, remaining: rule.scope.count ?? 1 });

  const controls: FaultControls = {
    serverErrors: (options = {}) =>
      add({ kind: 'server-error', status: options.status ?? 503, scope: options }),
    slowResponses: (options) => add({ kind: 'slow', delayMs: options.delayMs, scope: options }),
    malformedJson: (options = {}) => add({ kind: 'malformed-json', scope: options }),
    breakContract: (...breaks) => {
      for (const name of breaks) contractBreaks.add(name);
    },
    clear: () => {
      rules.length = 0;
      contractBreaks.clear();
    },
  };

  /** Consumes the rules that match this request and says what to do with it. */
  const planFor = (endpoint: PosEndpoint): FaultPlan => {
    const plan: FaultPlan = { delayMs: 0 };
    for (const entry of rules) {
      const wanted = entry.rule.scope.endpoint;
      if (wanted ? wanted !== endpoint : endpoint === 'POST /v1/oauth/token') continue;
      if (entry.remaining <= 0) continue;
      if (entry.after > 0) {
        entry.after -= 1;
        continue;
      }
      entry.remaining -= 1;
      if (entry.rule.kind === 'slow') plan.delayMs += entry.rule.delayMs;
      else if (entry.rule.kind === 'server-error') plan.serverError ??= entry.rule.status;
      else plan.malformedJson = true;
    }
    return plan;
  };

  return { controls, planFor, contractBreaks: contractBreaks as ReadonlySet<ContractBreak> };
}
