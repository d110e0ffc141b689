// @fin/server-kit/testing: the Store conformance suite (vitest), for teams writing their own Store adapter.
export { cartFixture, deviceImei } from './cart-fixture.js';
export { describeHoldStoreConformance, holdFixture } from './hold-store-conformance.js';
export { authorizationFixture, proposalFixture } from './record-fixtures.js';
export { describeStoreConformance } from './store-conformance.js';
