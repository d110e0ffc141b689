// Brazilian identifiers and IMEI: the spec's patterns plus check digits, on the shared public vectors; log masks.
import { cep, cnpj, cpf, imei, nfeKey } from '@fin/core';
import { describe, expect, it } from 'vitest';
import vectors from './vectors/identifiers.json' with { type: 'json' };

const nonStrings = [undefined, null, 52998224725, {}, ['52998224725']];

describe('cpf (spec: ^[0-9]{11}$, no mask)', () => {
  it.each(vectors.cpf.valid)('accepts %s: pattern and both mod-11 check digits', (value) => {
    expect(cpf.isValid(value)).toBe(true);
  });
  it.each(vectors.cpf.invalid)('rejects %j (check digit, all-same digits, mask or length)', (value) => {
    expect(cpf.isValid(value)).toBe(false);
  });
  it('rejects what is not a string', () => {
    for (const value of nonStrings) expect(cpf.isValid(value)).toBe(false);
  });
  it('rejects every all-same-digit value, though their check digits add up', () => {
    for (const d of '0123456789') expect(cpf.isValid(d.repeat(11))).toBe(false);
  });
  it('masks for logs showing digits 4 to 9 only', () => {
    expect(cpf.mask('52998224725')).toBe('***.982.247-**');
    expect(cpf.mask('529.982.247-25')).toBe('***.982.247-**');
    expect(cpf.mask('5299822')).toBe('*******');
    expect(cpf.format('52998224725')).toBe('529.982.247-25');
  });
});

describe('cnpj (spec: ^[0-9]{14}$, widened to the alphanumeric CNPJ of July 2026)', () => {
  it.each(vectors.cnpj.valid)('accepts the numeric %s', (value) => {
    expect(cnpj.isValid(value)).toBe(true);
  });
  it.each(vectors.cnpj.validAlphanumeric)(
    'accepts the alphanumeric %s (check digits on ASCII - 48)',
    (value) => {
      expect(cnpj.isValid(value)).toBe(true);
    },
  );
  it('accepts the Receita Federal example 12.ABC.345/01DE-35', () => {
    expect(cnpj.isValid('12ABC34501DE35')).toBe(true);
    expect(cnpj.format('12ABC34501DE35')).toBe('12.ABC.345/01DE-35');
  });
  it.each(vectors.cnpj.invalid)('rejects %j', (value) => {
    expect(cnpj.isValid(value)).toBe(false);
  });
  it('rejects what is not a string', () => {
    for (const value of nonStrings) expect(cnpj.isValid(value)).toBe(false);
  });
  it('masks for logs hiding the first two characters and the check digits', () => {
    expect(cnpj.mask('11222333000181')).toBe('**.222.333/0001-**');
    expect(cnpj.mask('12.ABC.345/01DE-35')).toBe('**.ABC.345/01DE-**');
  });
});

describe('cep (spec: ^[0-9]{8}$, no mask, no hyphen)', () => {
  it.each(vectors.cep.valid)('accepts %s', (value) => {
    expect(cep.isValid(value)).toBe(true);
  });
  it.each(vectors.cep.invalid)('rejects %j', (value) => {
    expect(cep.isValid(value)).toBe(false);
  });
  it('formats and masks', () => {
    expect(cep.format('01310100')).toBe('01310-100');
    expect(cep.mask('01310100')).toBe('01310-***');
  });
});

describe('imei (spec: exactly 15 digits)', () => {
  it.each(vectors.imei.valid)('accepts %s: pattern and Luhn check digit', (value) => {
    expect(imei.isValid(value)).toBe(true);
  });
  it.each(vectors.imei.invalid)('rejects %j (Luhn, all zeros, length or mask)', (value) => {
    expect(imei.isValid(value)).toBe(false);
  });
  it('rejects what is not a string', () => {
    for (const value of nonStrings) expect(imei.isValid(value)).toBe(false);
  });
  it('masks for logs down to its last 4 digits', () => {
    expect(imei.mask('490154203237518')).toBe('***********7518');
    expect(imei.mask('4901')).toBe('****');
  });
});

describe('nfeKey (spec: 44 digits; the embedded CNPJ may be alphanumeric)', () => {
  it.each(vectors.nfeKey.valid)('accepts %s: pattern and mod-11 check digit', (value) => {
    expect(nfeKey.isValid(value)).toBe(true);
  });
  it.each(vectors.nfeKey.validAlphanumeric)('accepts %s, whose issuer CNPJ is alphanumeric', (value) => {
    expect(nfeKey.isValid(value)).toBe(true);
    expect(cnpj.isValid(value.slice(6, 20))).toBe(true);
  });
  it.each(vectors.nfeKey.invalid)('rejects %j', (value) => {
    expect(nfeKey.isValid(value)).toBe(false);
  });
  it('rejects what is not a string', () => {
    for (const value of nonStrings) expect(nfeKey.isValid(value)).toBe(false);
  });
  it('a one-digit change anywhere in the NF-e manual example key is caught', () => {
    const [key = ''] = vectors.nfeKey.valid;
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
