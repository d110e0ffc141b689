// Brazilian identifiers and IMEI: the spec's patterns plus check digits, on the shared public vectors; log masks.
import { cep, cnpj, cpf, imei, nfeKey } from '@fin/core';
import { describe, expect, it } from 'vitest';
import vectors from './vectors/identifiers.json' with { type: 'json' };

const { cpf: cpfs, cnpj: cnpjs, cep: ceps, imei: imeis, nfeKey: keys } = vectors;
const cases = [
  ['cpf: ^[0-9]{11}$ and two mod-11 check digits', cpf, cpfs.valid, cpfs.invalid],
  [
    'cnpj: numeric or alphanumeric (July 2026), two mod-11 check digits on ASCII - 48',
    cnpj,
    [...cnpjs.valid, ...cnpjs.validAlphanumeric],
    cnpjs.invalid,
  ],
  ['cep: ^[0-9]{8}$, no mask, no hyphen', cep, ceps.valid, ceps.invalid],
  ['imei: ^[0-9]{15}$ and Luhn, all zeros refused', imei, imeis.valid, imeis.invalid],
  [
    'nfeKey: 44 characters (issuer CNPJ may be alphanumeric), mod-11 check digit',
    nfeKey,
    [...keys.valid, ...keys.validAlphanumeric],
    keys.invalid,
  ],
] as const;

describe.each(cases)('%s', (_rule, id, valid, invalid) => {
  it.each(valid)('accepts %s', (value) => {
    expect(id.isValid(value)).toBe(true);
  });
  it.each(invalid)('rejects %j (check digit, repeated digits, mask, case or length)', (value) => {
    expect(id.isValid(value)).toBe(false);
  });
  it('rejects what is not a string', () => {
    for (const value of [undefined, null, 52998224725, {}, [valid[0]]]) expect(id.isValid(value)).toBe(false);
  });
});

describe('cpf', () => {
  it('rejects every all-same-digit value, though their check digits add up', () => {
    for (const d of '0123456789') expect(cpf.isValid(d.repeat(11))).toBe(false);
  });
  it('masks for logs showing digits 4 to 9 only, and formats with dots', () => {
    expect(cpf.mask('52998224725')).toBe('***.982.247-**');
    expect(cpf.mask('529.982.247-25')).toBe('***.982.247-**');
    expect(cpf.mask('5299822')).toBe('*******');
    expect(cpf.format('52998224725')).toBe('529.982.247-25');
  });
});

describe('cnpj', () => {
  it('accepts the Receita Federal example 12.ABC.345/01DE-35', () => {
    expect(cnpj.isValid('12ABC34501DE35')).toBe(true);
    expect(cnpj.format('12ABC34501DE35')).toBe('12.ABC.345/01DE-35');
  });
  it('masks for logs hiding the first two characters and the check digits', () => {
    expect(cnpj.mask('11222333000181')).toBe('**.222.333/0001-**');
    expect(cnpj.mask('12.ABC.345/01DE-35')).toBe('**.ABC.345/01DE-**');
  });
});

describe('cep', () => {
  it('formats and masks', () => {
    expect(cep.format('01310100')).toBe('01310-100');
    expect(cep.mask('01310100')).toBe('01310-***');
  });
});

describe('imei', () => {
  it('masks for logs down to its last 4 digits', () => {
    expect(imei.mask('490154203237518')).toBe('***********7518');
    expect(imei.mask('4901')).toBe('****');
  });
});

describe('nfeKey.withCheckDigit', () => {
  it('appends the mod-11 check digit isValid expects, to every vector key body', () => {
    for (const key of [...keys.valid, ...keys.validAlphanumeric])
      expect(nfeKey.withCheckDigit(key.slice(0, 43))).toBe(key);
  });

  it('refuses a body that is not 43 characters of the key pattern', () => {
    expect(() => nfeKey.withCheckDigit('3524011122233300018155001')).toThrow(RangeError);
    expect(() => nfeKey.withCheckDigit('x'.repeat(43))).toThrow(RangeError);
  });
});

describe('nfeKey', () => {
  it('embeds a valid alphanumeric CNPJ in the alphanumeric vectors', () => {
    for (const key of keys.validAlphanumeric) expect(cnpj.isValid(key.slice(6, 20))).toBe(true);
  });
  it('a one-digit change anywhere in the NF-e manual example key is caught', () => {
    const key = '52060433009911002506550120000007800267301615';
    expect(nfeKey.isValid(key)).toBe(true);
    for (let i = 0; i < 44; i++) {
      const changed = key.slice(0, i) + String((Number(key.charAt(i)) + 1) % 10) + key.slice(i + 1);
      expect(nfeKey.isValid(changed)).toBe(false);
    }
  });
  it('formats in groups of four and masks the issuer and invoice number', () => {
    const key = '52060433009911002506550120000007800267301615';
    expect(nfeKey.format(key)).toBe('5206 0433 0099 1100 2506 5501 2000 0007 8002 6730 1615');
    expect(nfeKey.mask(key)).toBe(`520604${'*'.repeat(34)}1615`);
  });
});
