// an IMEI refusal always reaches the seller with a reason; the client writes one when the partner sent none.
import type { ImeiValidation, LogEntry, LogLevel } from '@fin/core';

/** What the seller reads when the partner refused an IMEI without saying why, by what its flags tell. */
export const imeiRefusalFallbacks = {
  invalidImei: 'IMEI inválido: confira os 15 dígitos na etiqueta da caixa ou discando *#06# no aparelho.',
  otherStore: 'Aparelho pertence ao estoque de outra loja: não pode ser vendido nesta loja.',
  notInStock: 'Aparelho indisponível no estoque desta loja: confira o IMEI ou escolha outro aparelho.',
} as const;

const isRefusal = (validation: ImeiValidation) => !validation.imeiValid || !validation.inStock;

function fallbackFor(validation: ImeiValidation, storeId: string): keyof typeof imeiRefusalFallbacks {
  if (!validation.imeiValid) return 'invalidImei';
  if (validation.storeId !== undefined && validation.storeId !== storeId) return 'otherStore';
  return 'notInStock';
}

/**
 * The validation as the seller should see it: a refusal (`imeiValid` or `inStock` false) with an empty or
 * missing `message` gets the fallback its flags call for, and a warning naming the partner's omission is
 * logged (no IMEI in it). Anything else is returned untouched.
 */
export function withRefusalMessage(
  validation: ImeiValidation,
  call: { storeId: string; requestId: string; log(level: LogLevel, entry: LogEntry): void },
): ImeiValidation {
  if (!isRefusal(validation) || validation.message?.trim()) return validation;
  const reason = fallbackFor(validation, call.storeId);
  call.log('warn', {
    event: 'pos.imei_refusal_without_message',
    problem:
      'the partner refused an IMEI without the operational message R-05 requires; the client showed its own',
    partnerMessage: validation.message === undefined ? 'missing' : 'empty',
    fallback: reason,
    storeId: call.storeId,
    imeiValid: validation.imeiValid,
    inStock: validation.inStock,
    requestId: call.requestId,
  });
  return { ...validation, message: imeiRefusalFallbacks[reason] };
}
