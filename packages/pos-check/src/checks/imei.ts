// the test IMEI resolves; a refused IMEI says why in `message` (missing text is a finding: our client writes its own).
import { schemas } from '@fin/core';
import { answerText, type Check, errorOf, successData } from '../check.js';

/** The flags and message of a validation; its other fields are the payload check's. */
const verdict = schemas.imeiValidation.pick({ imeiValid: true, inStock: true, message: true });

/** The test IMEI with its check digit broken: 15 digits, never a real device. */
const withWrongCheckDigit = (imei: string) => `${imei.slice(0, 14)}${(Number(imei.at(-1)) + 1) % 10}`;

export const imeiValidation: Check = {
  id: 'r05.imei',
  title: 'R-05: IMEI validation resolves the test device and explains a refusal',
  async run({ probe, options, violation, finding }) {
    const storeId = options.storeId;
    const known = await probe.send('validateImei', { query: { storeId, imei: options.imei } });
    const validation = verdict.safeParse(successData(known));
    if (!validation.success || !validation.data.imeiValid) {
      violation(
        known.endpoint,
        `the test IMEI; expected HTTP 200 with imeiValid true, got ${answerText(known)}${validation.success ? ' with imeiValid false' : ''}`,
        'check the --imei given (a device of the test store); resolve a known IMEI to its product with imeiValid true',
      );
    }
    const refused = await probe.send('validateImei', {
      query: { storeId, imei: withWrongCheckDigit(options.imei) },
    });
    if (refused.status === 422 && errorOf(refused)?.message.trim()) return; // a refusal as an error, with its reason
    const refusal = verdict.safeParse(successData(refused));
    if (!refusal.success) {
      return violation(
        refused.endpoint,
        `an IMEI with a wrong check digit; expected HTTP 200 with imeiValid false (or a 422), got ${answerText(refused)}`,
        'answer an IMEI failing its check digit with HTTP 200, imeiValid false and the reason in message (R-05)',
      );
    }
    if (refusal.data.imeiValid) {
      return violation(
        refused.endpoint,
        'an IMEI with a wrong check digit is reported imeiValid true',
        'validate the IMEI check digit (Luhn) and answer imeiValid false with the reason in message (R-05)',
      );
    }
    if (!refusal.data.message?.trim()) {
      finding(
        refused.endpoint,
        `an IMEI refusal has ${refusal.data.message === undefined ? 'no' : 'an empty'} message; @fin/pos-client shows the seller a generic reason of its own`,
        'give the reason of every refusal in `message`, in operational language the seller can act on, e.g. "IMEI inválido: confira os 15 dígitos" (R-05)',
      );
    }
  },
};
