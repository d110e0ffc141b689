// The error catalog: one table, code -> HTTP status, legacy code and seller-facing message, shared by clients and server.

/** One row of the catalog. `legacyCode` is two fixed letters plus four digits and never changes once published. */
export interface ErrorCatalogEntry {
  readonly status: number;
  readonly legacyCode: string;
  /** Default seller-facing message, Brazilian Portuguese, operational language. */
  readonly message: string;
  /** What the caller should do about it (English, for developers and the docs). */
  readonly action: string;
  /** Where the code comes from: spec section, or `decision` when we settled it. */
  readonly source: 'spec' | 'decision';
}

const entry = (
  status: number,
  legacyCode: string,
  message: string,
  action: string,
  source: 'spec' | 'decision' = 'spec',
): ErrorCatalogEntry => ({ status, legacyCode, message, action, source });

/**
 * Every error code of spec sections 5 and 7, plus the codes this implementation adds.
 * Legacy codes: `FA` + 1xxx authentication, 2xxx request and rate, 3xxx authorization rules,
 * 4xxx proposal reuse, 5xxx catalog and partner POS, 9xxx infrastructure.
 */
export const errorCatalog = {
  // Authentication (spec section 5).
  missing_token: entry(
    401,
    'FA1001',
    'Acesso não autorizado: o token de sistema não foi enviado.',
    'Send `Authorization: Bearer <token>`; the clients do this for you.',
  ),
  invalid_token: entry(
    401,
    'FA1002',
    'Acesso não autorizado: o token de sistema é inválido.',
    'Request a new system token and retry once.',
  ),
  expired_token: entry(
    401,
    'FA1003',
    'Acesso não autorizado: o token de sistema expirou.',
    'Request a new system token and retry once.',
  ),
  invalid_client: entry(
    401,
    'FA1004',
    'Credenciais do sistema inválidas ou de outro ambiente.',
    'Check client id, secret and environment (sandbox vs production). Do not retry.',
  ),
  insufficient_scope: entry(
    403,
    'FA1005',
    'O sistema não tem permissão para esta operação.',
    'Request a token with the scope this call needs, or ask for the scope to be granted.',
  ),
  store_context_required: entry(
    400,
    'FA1006',
    'Loja não informada. Faça o login do vendedor novamente.',
    'Send the `storeId` returned by the seller session.',
  ),
  invalid_scope: entry(
    400,
    'FA1007',
    'O sistema pediu uma permissão que não lhe foi concedida.',
    'Token endpoint (RFC 6749 `invalid_scope`): ask only for scopes granted to this client, or none to get them all.',
    'decision',
  ),
  unsupported_grant_type: entry(
    400,
    'FA1008',
    'Tipo de concessão não suportado.',
    'Token endpoint (RFC 6749 `unsupported_grant_type`): send `grant_type=client_credentials`.',
    'decision',
  ),
  // Request handling and limits (spec sections 7 and 8).
  rate_limit_exceeded: entry(
    429,
    'FA2001',
    'Muitas requisições. Aguarde alguns segundos e tente novamente.',
    'Wait `Retry-After` seconds, then retry with backoff and jitter.',
  ),
  idempotency_key_conflict: entry(
    409,
    'FA2002',
    'Esta operação já foi enviada com outros dados.',
    'Use a new Idempotency-Key for a new business intention; reuse it only for identical retries.',
  ),
  validation_error: entry(
    422,
    'FA2003',
    'Dados da requisição inválidos. Verifique os campos informados.',
    'Fix the fields listed in `details` and send again.',
    'decision',
  ),
  bad_request: entry(
    400,
    'FA2004',
    'Requisição malformada.',
    'Send a JSON body (or form body for the token endpoint) that parses.',
    'decision',
  ),
  missing_idempotency_key: entry(
    400,
    'FA2005',
    'Requisição sem chave de idempotência.',
    'Send an `Idempotency-Key` (uuid v4) on every write POST.',
    'decision',
  ),
  invalid_request_id: entry(
    400,
    'FA2006',
    'Identificador da requisição ausente ou inválido.',
    'Send `X-Request-Id` and `X-Correlation-Id` as uuid v4.',
    'decision',
  ),
  payload_too_large: entry(
    413,
    'FA2007',
    'Requisição grande demais.',
    'Send a smaller body; a cart never needs this much.',
    'decision',
  ),
  unsupported_media_type: entry(
    415,
    'FA2008',
    'Formato da requisição não suportado.',
    'Send `Content-Type: application/json`. (The token endpoint answers a body that is not form-encoded with 400 `bad_request`, RFC 6749 `invalid_request`.)',
    'decision',
  ),
  not_found: entry(404, 'FA2009', 'Recurso não encontrado.', 'Check the path and identifier.', 'decision'),
  method_not_allowed: entry(
    405,
    'FA2010',
    'Método não permitido para este endereço.',
    'Use the method the API defines for this path.',
    'decision',
  ),
  idempotency_key_in_progress: entry(
    409,
    'FA2011',
    'Esta operação ainda está em processamento.',
    'Wait `Retry-After` seconds and retry with the same Idempotency-Key.',
    'decision',
  ),
  not_implemented: entry(
    501,
    'FA2014',
    'Esta operação não está disponível neste sistema.',
    'An optional capability (stock reservation, v1.1) the partner does not offer; @fin/pos-client reads it as "not supported". Do not retry.',
    'decision',
  ),
  // Authorization rules (spec sections 1 and 7).
  total_mismatch: entry(
    422,
    'FA3001',
    'O total da venda não confere com os itens ou com a proposta aprovada. Refaça o carrinho.',
    'Recompute the cart totals (buildCart does) and authorize again; the service never adjusts values.',
  ),
  unsupported_currency: entry(
    422,
    'FA3002',
    'Moeda não suportada: use apenas reais (BRL).',
    'Send every amount as `{ amount: <cents>, currency: "BRL" }`.',
  ),
  imei_already_financed: entry(
    422,
    'FA3003',
    'Este aparelho (IMEI) já possui um financiamento ativo.',
    'Use another device, or cancel the existing sale first.',
  ),
  authorization_not_found: entry(
    404,
    'FA3004',
    'Autorização não encontrada.',
    'Check the authorizationId; it belongs only to the client that created it.',
    'decision',
  ),
  authorization_expired: entry(
    422,
    'FA3005',
    'A autorização expirou (15 minutos). Solicite uma nova autorização.',
    'Request a new authorization (R-06); do not invoice.',
    'decision',
  ),
  invalid_state_transition: entry(
    409,
    'FA3006',
    'Esta operação não é permitida no estado atual da venda.',
    'Read the current status in `details`; the operation cannot be applied to it.',
    'decision',
  ),
  // Proposal reuse, R-11.
  proposal_not_found: entry(
    422,
    'FA4001',
    'Nenhuma proposta aprovada para este CPF nesta loja.',
    'A new credit analysis is needed: authorize without reuse.',
  ),
  proposal_already_used: entry(
    422,
    'FA4002',
    'A proposta original não está disponível para troca.',
    'The earlier sale is not cancelled for exchange (or not yet verified); a new credit analysis is needed.',
  ),
  proposal_reuse_window_expired: entry(
    422,
    'FA4003',
    'Prazo de 7 dias para reaproveitar a proposta encerrado.',
    'A new credit analysis is needed.',
  ),
  proposal_reuse_amount_exceeded: entry(
    422,
    'FA4004',
    'O novo valor ultrapassa o valor aprovado na proposta.',
    'Lower the cart total to at most the approved amount, or start a new credit analysis.',
  ),
  proposal_reuse_limit_reached: entry(
    422,
    'FA4005',
    'A proposta já foi reaproveitada o número máximo de vezes.',
    'A new credit analysis is needed.',
  ),
  // Catalog and partner POS (spec section 7 examples and section 4).
  store_not_found: entry(
    404,
    'FA5001',
    'Loja não encontrada ou não vinculada a este sistema.',
    'Use a storeId returned by the seller session of this partner.',
  ),
  imei_not_in_stock: entry(
    422,
    'FA5002',
    'IMEI não encontrado no estoque desta loja.',
    'Check the device and the store; scan the IMEI again.',
  ),
  resource_not_found: entry(
    404,
    'FA5003',
    'Item não encontrado no catálogo da loja.',
    'Check the identifier (SKU, barcode, plan) and the store.',
    'decision',
  ),
  // Refused by the HTTP server itself before any route runs (toNodeHandler's answerClientErrors).
  request_header_fields_too_large: entry(
    431,
    'FA2012',
    'Requisição recusada: cabeçalhos grandes demais.',
    'Send smaller headers (the server limit is Node.js `maxHeaderSize`, 16 KiB by default).',
    'decision',
  ),
  request_timeout: entry(
    408,
    'FA2013',
    'Requisição recusada: não chegou completa a tempo.',
    'Send the whole request at once; retry with the same Idempotency-Key.',
    'decision',
  ),
  insufficient_stock: entry(
    409,
    'FA5004',
    'Estoque insuficiente: as unidades disponíveis já estão reservadas ou vendidas.',
    'Hold fewer units, or release a hold of this store first; `stock` minus `reserved` is what is left.',
    'decision',
  ),
  imei_already_reserved: entry(
    409,
    'FA5005',
    'Este aparelho (IMEI) já está reservado para outra venda.',
    'Use another device, or release the active hold of this IMEI first (one active hold per IMEI).',
    'decision',
  ),
  reservation_not_found: entry(
    404,
    'FA5006',
    'Reserva de estoque não encontrada nesta loja.',
    'Check the reservationId and the storeId it was made in.',
    'decision',
  ),
  reservation_not_active: entry(
    409,
    'FA5007',
    'A reserva não está mais ativa (liberada, expirada ou faturada).',
    'Read its `state` in `details`; make a new hold if the device is still needed.',
    'decision',
  ),
  // Infrastructure.
  internal_error: entry(
    500,
    'FA9001',
    'Erro interno. Tente novamente em instantes.',
    'Retry with the same Idempotency-Key; contact support with the requestId if it persists.',
    'decision',
  ),
  service_unavailable: entry(
    503,
    'FA9002',
    'Serviço temporariamente indisponível. Tente novamente em instantes.',
    'Retry with backoff and the same Idempotency-Key.',
    'decision',
  ),
} as const satisfies Record<string, ErrorCatalogEntry>;

/** A code this version of the SDK knows. A newer server may send others: see `isFinApiError`. */
export type ErrorCode = keyof typeof errorCatalog;

export const errorCodes = Object.keys(errorCatalog) as ErrorCode[];

export const isKnownErrorCode = (code: string): code is ErrorCode => Object.hasOwn(errorCatalog, code);

/** The catalog row of a code, or undefined for a code this version does not know. */
export const catalogEntry = (code: string): ErrorCatalogEntry | undefined =>
  isKnownErrorCode(code) ? errorCatalog[code] : undefined;
