// Migration 8: the write's rate-limit hit as the last step of its claim, refusing by rolling it back.
import type { Migration } from './migration.js';

/** SQLSTATE of a hit over the limit (`fin_rate_limit_admit`): the statement, its claim with it, rolls back. */
export const LIMIT_REFUSED = 'FN429';

/**
 * `fin_rate_limit_admit` is the limiter's hit (`fin_rate_limit_hit`, migration 7: same window, same answer)
 * for a statement that has already claimed its key and made its reads: the partner's limiter row is locked
 * only from this last step to the commit, not through the claim and the reads. An admitted hit answers
 * `{remaining, reset_at_ms}`; a refused one raises `FN429` with the same in its detail, so the whole
 * statement, claim included, is undone.
 */
export const limitHitLast: Migration = {
  version: 8,
  name: 'rate-limit hit last in the claim',
  sql: /* sql */ `
CREATE FUNCTION fin_rate_limit_admit(p_key text, p_now_ms bigint, p_window_ms bigint, p_limit integer)
RETURNS json LANGUAGE plpgsql AS $$
DECLARE
  h record;
BEGIN
  SELECT * INTO h FROM fin_rate_limit_hit(p_key, p_now_ms, p_window_ms, p_limit);
  IF NOT h.allowed THEN
    RAISE EXCEPTION 'rate limit reached for %', p_key USING ERRCODE = '${LIMIT_REFUSED}',
      DETAIL = json_build_object('remaining', h.remaining, 'reset_at_ms', h.reset_at_ms)::text;
  END IF;
  RETURN json_build_object('remaining', h.remaining, 'reset_at_ms', h.reset_at_ms);
END
$$;
`,
};
