// Public entry point of @fin/core: the shared contract of the @fin SDKs.

export * as endpoints from './endpoints/index.js';
export * from './errors/index.js';
export * as cep from './identifiers/cep.js';
export * as cnpj from './identifiers/cnpj.js';
export * as cpf from './identifiers/cpf.js';
export * as imei from './identifiers/imei.js';
export * as nfeKey from './identifiers/nfe-key.js';
export * as money from './money/index.js';
export * from './openapi/index.js';
export * from './redact/index.js';
export type * from './schemas/index.js';
export * as schemas from './schemas/index.js';
export * from './transport/index.js';
