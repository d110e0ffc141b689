// Decorators of the Store and CreditEngine ports: one child span per call, whatever store or engine is plugged in.
import type { Instrumentation } from '@fin/core/transport';
import type { CreditEngine } from '../ports/credit-engine.js';
import type { Store } from '../ports/store.js';

/**
 * The store with each operation in an internal span `store.<operation>`, child of the request's (or the
 * worker's) span. Arguments and results are never recorded: they hold CPFs and IMEIs. Optional operations
 * stay absent when the store lacks them. The store itself when the API is absent.
 */
export function tracedStore(store: Store, instrumentation: Instrumentation): Store {
  if (!instrumentation.enabled) return store;
  const wrapped = new Map<PropertyKey, unknown>();
  return new Proxy(store, {
    get(target, property, receiver) {
      const value: unknown = Reflect.get(target, property, receiver);
      if (typeof value !== 'function' || typeof property !== 'string') return value;
      let traced = wrapped.get(property);
      if (!traced) {
        const operation = (...args: unknown[]) =>
          instrumentation.span(
            `store.${property}`,
            { kind: 'internal', attributes: { 'fin.store.operation': property } },
            () => Promise.resolve(value.apply(target, args)),
          );
        traced = operation;
        wrapped.set(property, traced);
      }
      return traced;
    },
  });
}

/** The credit engine with each analysis in a span `credit.analyze` saying approved or declined, and why. */
export function tracedCreditEngine(credit: CreditEngine, instrumentation: Instrumentation): CreditEngine {
  if (!instrumentation.enabled) return credit;
  return {
    analyze: (request) =>
      instrumentation.span('credit.analyze', { kind: 'internal' }, async (span) => {
        const decision = await credit.analyze(request);
        span.set(
          decision.approved
            ? { 'fin.credit.decision': 'approved', 'fin.credit.installments': decision.installments }
            : { 'fin.credit.decision': 'declined', 'fin.decline_reason': decision.declineReason },
        );
        return decision;
      }),
  };
}
