// A checkout's outcome in a few words, for a step that expected another one.
import type { CheckoutResult } from '@fin/example-pos-checkout';

export function outcomeOf(result: CheckoutResult): string {
  if (result.outcome === 'declined') return `a decline (${result.declineReason})`;
  if (result.outcome === 'refused') return `a refusal (${result.code})`;
  return `a financed sale (${result.contract.contractId})`;
}
