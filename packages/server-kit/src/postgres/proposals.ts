// Credit proposals in PostgreSQL: immutable rows, and "unused" decided by the live authorizations that point at them.
import { money } from '@fin/core';
import { type ProposalRecord, proposalRecord } from '../ports/records.js';
import { type Queryable, query } from './sql.js';

/** A row as pg reads it, or as JSON (`row_to_json`: timestamps as text). */
export interface ProposalRow {
  proposal_id: string;
  client_tax_id: string;
  store_id: string;
  amount_cents: number;
  installments: number;
  approved_at: Date | string;
  source: string;
}

export const toProposal = (row: ProposalRow): ProposalRecord =>
  proposalRecord.parse({
    proposalId: row.proposal_id,
    clientTaxId: row.client_tax_id,
    storeId: row.store_id,
    amount: money.brl(row.amount_cents),
    installments: row.installments,
    approvedAt: new Date(row.approved_at).toISOString(),
    source: row.source,
  });

/** The columns a proposal is inserted with, and their SQL types (migration 1), in `proposalValues` order. */
export const PROPOSAL_COLUMNS = [
  ['proposal_id', 'text'],
  ['client_tax_id', 'text'],
  ['store_id', 'text'],
  ['amount_cents', 'bigint'],
  ['installments', 'integer'],
  ['approved_at', 'timestamptz'],
  ['source', 'text'],
] as const;

export const proposalValues = (proposal: ProposalRecord) => [
  proposal.proposalId,
  proposal.clientTaxId,
  proposal.storeId,
  proposal.amount.amount,
  proposal.installments,
  proposal.approvedAt,
  proposal.source,
];

/** Stores a proposal once; a second insert of the same id changes nothing (proposals are immutable). */
export async function insertProposal(db: Queryable, proposal: ProposalRecord): Promise<void> {
  await query(
    db,
    `INSERT INTO fin_proposals (${PROPOSAL_COLUMNS.map(([column]) => column).join(', ')})
     VALUES (${PROPOSAL_COLUMNS.map((_, i) => `$${i + 1}`).join(', ')}) ON CONFLICT (proposal_id) DO NOTHING`,
    proposalValues(proposal),
  );
}

export async function getProposal(db: Queryable, proposalId: string): Promise<ProposalRecord | undefined> {
  const { rows } = await query<ProposalRow>(db, 'SELECT * FROM fin_proposals WHERE proposal_id = $1', [
    proposalId,
  ]);
  return rows[0] && toProposal(rows[0]);
}

/** The newest proposal of this CPF and store that no live authorization uses (live: not expired, as of `now`). */
/** `findUnusedProposal`'s query; its arguments are the placeholders of CPF, store and now. */
export const unusedProposalSql = (clientTaxId: string, storeId: string, now: string) =>
  `SELECT p.* FROM fin_proposals p
   WHERE p.client_tax_id = ${clientTaxId} AND p.store_id = ${storeId}
     AND NOT EXISTS (
       SELECT 1 FROM fin_authorizations a
       WHERE a.proposal_id = p.proposal_id AND a.status <> 'EXPIRED'
         AND NOT (a.status = 'AUTHORIZED' AND a.expires_at <= ${now}))
   ORDER BY p.approved_at DESC, p.proposal_id DESC LIMIT 1`;

export async function findUnusedProposal(
  db: Queryable,
  clientTaxId: string,
  storeId: string,
  now: Date,
): Promise<ProposalRecord | undefined> {
  const { rows } = await query<ProposalRow>(db, unusedProposalSql('$1', '$2', '$3'), [
    clientTaxId,
    storeId,
    now,
  ]);
  return rows[0] && toProposal(rows[0]);
}
