// sandboxCreditEngine(): a CreditEngine that decides by magic CPF, for demos and POS vendors' tests.
import type { CreditEngine } from '../ports/credit-engine.js';
import { type SandboxOutcome, sandboxTaxIds } from './sandbox-tax-ids.js';

export interface SandboxCreditEngineOptions {
  /** Installments of every approval; default 10. */
  installments?: number;
  /** More magic CPFs, or other outcomes for the listed ones. */
  outcomes?: Record<string, SandboxOutcome>;
}

const limitExceeded = sandboxTaxIds['00000000272'];

/** Approves every CPF but the magic ones of `sandboxTaxIds` (docs/server-kit.md lists them). */
export function sandboxCreditEngine(options: SandboxCreditEngineOptions = {}): CreditEngine {
  const installments = options.installments ?? 10;
  const outcomes: Record<string, SandboxOutcome> = { ...sandboxTaxIds, ...options.outcomes };
  return {
    async analyze(request) {
      const rule = outcomes[request.clientTaxId] ?? { outcome: 'approve' };
      if (rule.outcome === 'unavailable') throw new Error('sandbox credit engine: unavailable (magic CPF)');
      if (rule.outcome === 'decline') {
        return {
          approved: false,
          declineReason: rule.declineReason ?? 'CREDIT_POLICY',
          message: rule.message,
        };
      }
      if (rule.outcome === 'approve_up_to' && request.amount.amount > (rule.limitCents ?? 0)) {
        return {
          approved: false,
          declineReason: limitExceeded.declineReason,
          message: limitExceeded.message,
        };
      }
      return { approved: true, amount: request.amount, installments };
    },
  };
}
