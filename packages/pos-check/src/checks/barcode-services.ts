// the barcode lookup serves accessories (with current stock); warranties and insurance come from GET /v1/services and carry no barcode.
import { schemas } from '@fin/core';
import { answerText, type Check, skip, successData } from '../check.js';
import { objectsIn } from './observed.js';

const accessoryAnswer = schemas.productWithStock.pick({ sku: true, productType: true, stock: true });

const BARCODE_FIELD = /^(barcode|ean|ean13|gtin|codigoDeBarras|codigoBarras)$/i;

export const barcodeAndServices: Check = {
  id: 'r04.barcode',
  title: 'R-04: barcode lookup serves accessories; services have no barcode',
  async run({ probe, options, facts, violation }) {
    const storeId = options.storeId;
    const services = await probe.send('listServices', {
      query: { storeId, sku: await facts.smartphoneSku() },
    });
    const data = successData(services);
    if (!Array.isArray((data as { services?: unknown } | undefined)?.services)) {
      violation(
        services.endpoint,
        `the services of the test smartphone; expected HTTP 200 with data.services, got ${answerText(services)}`,
        'list the warranties, insurance and protections of a smartphone SKU under data.services',
      );
    }
    for (const [path, object] of objectsIn(data)) {
      const field = Object.keys(object).find((key) => BARCODE_FIELD.test(key));
      if (field) {
        violation(
          services.endpoint,
          `a service carries a barcode (${path}.${field})`,
          'services (warranties, insurance, protections) have no barcode: remove it; they are sold from GET /v1/services (R-04)',
        );
      }
    }
    if (!options.accessoryBarcode) {
      return skip('services checked; the accessory barcode lookup needs --accessory-barcode');
    }
    const lookup = await probe.send('getProductByBarcode', {
      query: { storeId, barcode: options.accessoryBarcode },
    });
    // Price is the money check's, the other fields the payload check's: here, a product with its stock.
    const product = accessoryAnswer.safeParse(successData(lookup));
    if (!product.success) {
      return violation(
        lookup.endpoint,
        `an accessory's barcode; expected HTTP 200 with the product and its stock, got ${answerText(lookup)}`,
        'serve smartphones and every accessory (case, screen protector, cable, charger, headphones) by barcode, with current stock (R-04)',
      );
    }
    if (product.data.productType === 'SMARTPHONE') {
      violation(
        lookup.endpoint,
        'the accessory barcode given resolves to a SMARTPHONE',
        'check the --accessory-barcode given, and answer an accessory with productType ACCESSORY',
      );
    }
  },
};
