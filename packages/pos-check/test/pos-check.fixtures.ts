// fin-pos-check against the simulated partner: the test data a partner would give, read from the simulation.
import { createSimulatedPos, type SimulatedPosOptions } from '@fin/pos-client/testing';
import type { PosCheckOptions } from '../src/options.js';

export const BASE_URL = 'http://partner-pos.test';

/** A small simulated partner and the options fin-pos-check would get for it. */
export function simulatedPartner(options: SimulatedPosOptions = {}) {
  const sim = createSimulatedPos({ size: { stores: 2, productsPerStore: 60, employees: 30 }, ...options });
  const seller = sim.data.sellers[0]!;
  const storeId = seller.storeId;
  const [shelved, sold] = sim.data.devices({ storeId, inStock: true });
  const sale = sim.sales.register({ imei: sold!.imei, taxId: '52998224725', status: 'ACTIVE' });
  const accessory = sim.data.products(storeId).find((entry) => entry.product.productType === 'ACCESSORY')!;
  const checkOptions: PosCheckOptions = {
    baseUrl: BASE_URL,
    ...sim.credentials,
    seller: { username: seller.username, password: seller.password },
    storeId,
    imei: shelved!.imei,
    saleTaxId: '52998224725',
    accessoryBarcode: accessory.barcode,
    fetch: sim.fetch,
  };
  return { sim, options: checkOptions, sale, seller };
}
