// The sandbox's magic CPFs: one table of outcomes POS vendors can trigger in their tests (valid check digits).

export interface SandboxOutcome {
  /** What the sandbox engine does for this CPF. */
  outcome: 'approve' | 'decline' | 'unavailable' | 'approve_up_to';
  declineReason?: string;
  /** Seller-facing text of a refusal. */
  message?: string;
  /** For `approve_up_to`: the largest amount approved, in cents; above it, `INSUFFICIENT_CREDIT_LIMIT`. */
  limitCents?: number;
}

/** Any CPF not listed here is approved. */
export const sandboxTaxIds = {
  /** Approved (as is every CPF not listed). */
  '00000000191': { outcome: 'approve' },
  '00000000272': {
    outcome: 'decline',
    declineReason: 'INSUFFICIENT_CREDIT_LIMIT',
    message:
      'Limite de crédito insuficiente para este valor. Ofereça um aparelho de menor valor ou outra forma de pagamento.',
  },
  '00000000353': {
    outcome: 'decline',
    declineReason: 'CREDIT_POLICY',
    message: 'Crédito não aprovado pela política de crédito. Ofereça outra forma de pagamento.',
  },
  '00000000434': {
    outcome: 'decline',
    declineReason: 'RESTRICTED_TAX_ID',
    message: 'CPF com restrição de crédito. Ofereça outra forma de pagamento.',
  },
  '00000000515': {
    outcome: 'decline',
    declineReason: 'IRREGULAR_TAX_ID',
    message: 'CPF com situação irregular na Receita Federal. Peça ao cliente que regularize o cadastro.',
  },
  '00000000604': {
    outcome: 'decline',
    declineReason: 'MANUAL_REVIEW',
    message: 'Proposta encaminhada para análise manual. Não fature agora; tente novamente mais tarde.',
  },
  /** The engine does not answer: the API answers 503 `service_unavailable` (retry with the same key). */
  '00000000787': { outcome: 'unavailable' },
  /** Approved up to R$ 1.000,00; a larger `grandTotal` is declined with `INSUFFICIENT_CREDIT_LIMIT`. */
  '00000000868': { outcome: 'approve_up_to', limitCents: 100_000 },
} as const satisfies Record<string, SandboxOutcome>;
