// Money in integer cents: parsing, pt-BR formatting identical to Intl, exact allocation and checked arithmetic.
import { FinInputError, isFinInputError, type Money, money } from '@fin/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

const safeCents = fc.integer({ min: Number.MIN_SAFE_INTEGER, max: Number.MAX_SAFE_INTEGER });
const anyMoney = safeCents.map(money.brl);
const intl = new Intl.NumberFormat('pt-BR', { style: 'currency', currency: 'BRL' });
// Intl formats a decimal string exactly; the string is built from BigInt digits, not by dividing by 100.
const decimal = (cents: number) => {
  const big = BigInt(cents);
  const abs = big < 0n ? -big : big;
  return `${big < 0n ? '-' : ''}${abs / 100n}.${String(abs % 100n).padStart(2, '0')}`;
};
const dollars = { amount: 100, currency: 'USD' } as unknown as Money;
// Every function of the namespace that takes Money, called with `bad` in each Money position.
const callsWith = (bad: Money) => {
  const one = money.brl(1);
  return [
    () => money.add(bad, one),
    () => money.add(one, bad),
    () => money.subtract(bad, one),
    () => money.subtract(one, bad),
    () => money.sum([one, bad]),
    () => money.multiply(bad, 2),
    () => money.compare(bad, one),
    () => money.compare(one, bad),
    () => money.equals(one, bad),
    () => money.allocate(bad, 2),
    () => money.format(bad),
  ];
};

describe('money.parse', () => {
  it.each([
    ['1234.56', 123456],
    ['1.234,56', 123456],
    ['R$ 1.234,56', 123456],
    ['R$\u00a01.234,56', 123456],
    ['R$1234,56', 123456],
    ['0,5', 50],
    ['0.5', 50],
    ['1234', 123400],
    ['  12,30 ', 1230],
    ['1.234.567,89', 123456789],
    ['-10,00', -1000],
    ['-R$ 10,00', -1000],
    ['R$ -10,00', -1000],
    ['-0,00', 0],
    ['90071992547409,91', Number.MAX_SAFE_INTEGER],
  ])('reads %j as %i cents', (text, cents) => {
    expect(money.parse(text)).toEqual({ amount: cents, currency: 'BRL' });
  });

  it.each([
    '1.234', // a single dot is a decimal mark: three decimals
    '0,555',
    '12.3456',
    '1,234.56',
    '12.34,56',
    '1234.',
    ',5',
    '',
    'R$',
    'abc',
    '12a',
    '1e3',
    'NaN',
    'Infinity',
    '--1',
    '-R$ -1',
    '+1',
    '1 234,56',
  ])('rejects %j', (text) => {
    expect(() => money.parse(text)).toThrow(TypeError);
  });

  it('rejects amounts past Number.MAX_SAFE_INTEGER cents instead of rounding them', () => {
    expect(() => money.parse('90071992547409,92')).toThrow(RangeError);
    expect(() => money.parse('99999999999999999999')).toThrow(RangeError);
  });

  it('rejects what is not a string', () => {
    expect(() => money.parse(12.5 as unknown as string)).toThrow(TypeError);
  });
});

describe('money.format', () => {
  it.each([
    [123456, 'R$\u00a01.234,56'],
    [50, 'R$\u00a00,50'],
    [5, 'R$\u00a00,05'],
    [0, 'R$\u00a00,00'],
    [-123456, '-R$\u00a01.234,56'],
    [100000000, 'R$\u00a01.000.000,00'],
  ])('prints %i cents as %j', (cents, text) => {
    expect(money.format(money.brl(cents))).toBe(text);
  });

  it('prints exactly what Intl.NumberFormat pt-BR BRL prints, for every safe amount', () => {
    fc.assert(
      fc.property(safeCents, (cents) => {
        expect(money.format(money.brl(cents))).toBe(intl.format(decimal(cents) as Intl.StringNumericLiteral));
      }),
    );
  });

  it('parse(format(m)) gives m back for every safe amount', () => {
    fc.assert(
      fc.property(anyMoney, (m) => {
        expect(money.parse(money.format(m))).toEqual(m);
      }),
    );
  });

  it('parse reads the plain decimal form of every safe amount', () => {
    fc.assert(
      fc.property(safeCents, (cents) => {
        expect(money.parse(decimal(cents)).amount).toBe(cents);
      }),
    );
  });
});

describe('money.allocate', () => {
  it('splits into installments that add up exactly, larger parts first', () => {
    expect(money.allocate(money.brl(1000), 3).map((m) => m.amount)).toEqual([334, 333, 333]);
    expect(money.allocate(money.brl(100001), 10).map((m) => m.amount)).toEqual([
      10001, 10000, 10000, 10000, 10000, 10000, 10000, 10000, 10000, 10000,
    ]);
  });

  it('splits by integer weights, leftover cents to the first non-zero weights', () => {
    expect(money.allocate(money.brl(100), [1, 1, 1]).map((m) => m.amount)).toEqual([34, 33, 33]);
    expect(money.allocate(money.brl(100), [0, 1, 1, 1]).map((m) => m.amount)).toEqual([0, 34, 33, 33]);
    expect(money.allocate(money.brl(1005), [70, 30]).map((m) => m.amount)).toEqual([704, 301]);
  });

  it('mirrors negative amounts', () => {
    expect(money.allocate(money.brl(-1000), 3).map((m) => m.amount)).toEqual([-334, -333, -333]);
  });

  it('always adds up exactly, in integer parts that differ by at most one cent per share', () => {
    fc.assert(
      fc.property(anyMoney, fc.integer({ min: 1, max: 60 }), (m, count) => {
        const parts = money.allocate(m, count);
        expect(parts).toHaveLength(count);
        expect(money.sum(parts)).toEqual(m);
        const amounts = parts.map((p) => p.amount);
        expect(amounts.every(Number.isSafeInteger)).toBe(true);
        expect(Math.max(...amounts) - Math.min(...amounts)).toBeLessThanOrEqual(1);
        expect([...amounts].sort((a, b) => Math.abs(b) - Math.abs(a))).toEqual(amounts);
      }),
    );
    fc.assert(
      fc.property(
        anyMoney,
        fc.array(fc.integer({ min: 0, max: Number.MAX_SAFE_INTEGER }), { minLength: 1, maxLength: 12 }),
        (m, weights) => {
          fc.pre(weights.some((w) => w > 0));
          const parts = money.allocate(m, weights);
          expect(parts).toHaveLength(weights.length);
          expect(money.sum(parts)).toEqual(m);
          expect(parts.every((p) => Number.isSafeInteger(p.amount))).toBe(true);
          weights.forEach((w, i) => {
            if (w === 0) expect(parts[i]?.amount).toBe(0);
          });
        },
      ),
    );
  });

  it.each([[0], [-1], [1.5], [Number.NaN], [[]], [[0, 0]], [[1, -1]], [[0.5, 1]]])(
    'rejects parts %j',
    (parts) => {
      expect(() => money.allocate(money.brl(100), parts)).toThrow(RangeError);
    },
  );
});

describe('money arithmetic', () => {
  it('adds, subtracts, sums and multiplies in cents', () => {
    expect(money.add(money.brl(150), money.brl(275))).toEqual(money.brl(425));
    expect(money.subtract(money.brl(150), money.brl(275))).toEqual(money.brl(-125));
    expect(money.sum([money.brl(1), money.brl(2), money.brl(3)])).toEqual(money.brl(6));
    expect(money.sum([])).toEqual(money.brl(0));
    expect(money.multiply(money.brl(199990), 3)).toEqual(money.brl(599970));
  });

  it('compares and tests equality', () => {
    expect(money.compare(money.brl(1), money.brl(2))).toBe(-1);
    expect(money.compare(money.brl(2), money.brl(2))).toBe(0);
    expect(money.compare(money.brl(3), money.brl(2))).toBe(1);
    expect(money.equals(money.brl(0), money.brl(-0))).toBe(true);
    expect(Object.is(money.brl(-0).amount, 0)).toBe(true);
  });

  it('never yields a non-integer or an inexact result: it throws instead', () => {
    fc.assert(
      fc.property(anyMoney, anyMoney, fc.integer({ min: -1_000_000, max: 1_000_000 }), (a, b, qty) => {
        for (const op of [() => money.add(a, b), () => money.subtract(a, b), () => money.multiply(a, qty)]) {
          let result: Money | undefined;
          try {
            result = op();
          } catch (error) {
            expect(error).toBeInstanceOf(RangeError);
            continue;
          }
          expect(Number.isSafeInteger(result.amount)).toBe(true);
        }
        const big = (m: Money) => BigInt(m.amount);
        const exactSum = big(a) + big(b);
        if (exactSum <= BigInt(Number.MAX_SAFE_INTEGER) && exactSum >= BigInt(Number.MIN_SAFE_INTEGER)) {
          expect(BigInt(money.add(a, b).amount)).toBe(exactSum);
        }
      }),
    );
  });

  it('multiply refuses a result past the safe range and a fractional quantity', () => {
    expect(() => money.multiply(money.brl(Number.MAX_SAFE_INTEGER), 2)).toThrow(RangeError);
    expect(() => money.multiply(money.brl(100), 1.5)).toThrow(TypeError);
    expect(() => money.add(money.brl(Number.MAX_SAFE_INTEGER), money.brl(1))).toThrow(RangeError);
  });

  it.each([
    [1.5, TypeError],
    [Number.NaN, TypeError],
    [Number.POSITIVE_INFINITY, TypeError],
    [Number.MAX_SAFE_INTEGER + 1, RangeError],
    ['100', TypeError],
  ])('every function rejects the amount %s', (amount, kind) => {
    expect(() => money.brl(amount as number)).toThrow(kind);
    for (const call of callsWith({ amount, currency: 'BRL' } as unknown as Money)) expect(call).toThrow(kind);
  });

  it('every function refuses a currency other than BRL with unsupported_currency', () => {
    for (const call of callsWith(dollars)) {
      expect(call).toThrow(FinInputError);
      try {
        call();
      } catch (error) {
        expect(isFinInputError(error, 'unsupported_currency')).toBe(true);
        expect((error as FinInputError).status).toBe(422);
      }
    }
  });
});
