// money.format: pt-BR currency text, character for character what Intl prints ("R$ 1.234,56" with U+00A0).
import type { Money } from '../schemas/primitives.js';
import { centsToDecimal } from './decimal.js';
import { assertMoney } from './guard.js';

/**
 * `R$ 1.234,56`, negative `-R$ 1.234,56`, with the no-break space Intl puts after the symbol.
 * Built from the digits of the cents (no division by 100): reais grouped by thousands, cents as text.
 */
export function format(m: Money): string {
  assertMoney(m, 'money.format');
  const [whole = '', fraction = ''] = centsToDecimal(m.amount).split('.');
  const negative = whole.startsWith('-');
  const reais = (negative ? whole.slice(1) : whole).replace(/\B(?=(\d{3})+$)/g, '.');
  return `${negative ? '-' : ''}R$\u00a0${reais},${fraction}`;
}
