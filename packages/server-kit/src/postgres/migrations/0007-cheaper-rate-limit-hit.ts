// Migration 7: the same sliding-window admission as migration 2, at a fraction of its cost (issue 27).
import type { Migration } from './migration.js';

/**
 * `fin_rate_limit_hit` again, same arguments, same answers, same table: the key row is locked by the
 * SELECT that reads it (no INSERT attempt on every hit), the window is found in the sorted slices by
 * binary search and summed, in place of unnesting and re-aggregating them, and the admitted hit adds to
 * the last slice or appends one. Only a clock that went back (a hit older than the newest slice) takes the
 * old merge. Slices are kept one window longer than they are counted, as `rules/sliding-window.ts` keeps
 * them: an instance whose clock runs behind still counts every slice of its own window. Replaced in place,
 * so instances of the previous release share the row and the function while they drain.
 */
export const cheaperRateLimitHit: Migration = {
  version: 7,
  name: 'cheaper sliding-window hit',
  sql: /* sql */ `
CREATE OR REPLACE FUNCTION fin_rate_limit_hit(p_key text, p_now_ms bigint, p_window_ms bigint, p_limit integer,
                                              OUT allowed boolean, OUT remaining integer, OUT reset_at_ms bigint)
LANGUAGE plpgsql AS $$
DECLARE
  slice   bigint := greatest(1, ceil(p_window_ms / 60.0)::bigint);
  current bigint := p_now_ms - (p_now_ms % slice);
  starts  bigint[];
  hits    integer[];
  n       integer;
  first   integer;
  counts  integer;
  counted integer := 0;
  excess  integer;
  i       integer;
BEGIN
  SELECT slice_starts, slice_hits INTO starts, hits FROM fin_rate_limits WHERE limit_key = p_key FOR UPDATE;
  IF NOT FOUND THEN
    INSERT INTO fin_rate_limits (limit_key, slice_starts, slice_hits, window_end)
    VALUES (p_key, '{}', '{}', to_timestamp(p_now_ms / 1000.0))
    ON CONFLICT (limit_key) DO NOTHING;
    SELECT slice_starts, slice_hits INTO starts, hits FROM fin_rate_limits WHERE limit_key = p_key FOR UPDATE;
  END IF;
  n := cardinality(starts);
  -- Slices are kept a window longer than they are counted (rules/sliding-window.ts, retainedMs); the
  -- starts are sorted and distinct, so width_bucket (a binary search) counts those that ended before.
  first := width_bucket(p_now_ms - 2 * p_window_ms - slice, starts) + 1;
  counts := width_bucket(p_now_ms - p_window_ms - slice, starts) + 1;
  FOR i IN counts .. n LOOP
    counted := counted + hits[i];
  END LOOP;
  allowed := counted < p_limit;
  IF allowed THEN
    IF first > 1 THEN
      starts := starts[first:n];
      hits := hits[first:n];
      n := n - first + 1;
      counts := counts - first + 1;
    END IF;
    IF n > 0 AND starts[n] = current THEN
      hits[n] := hits[n] + 1;
    ELSIF n = 0 OR starts[n] < current THEN
      starts := starts || current;
      hits := hits || 1;
      n := n + 1;
    ELSE
      SELECT array_agg(s ORDER BY s), array_agg(h ORDER BY s) INTO starts, hits
      FROM (SELECT s, sum(h)::integer AS h FROM unnest(starts || current, hits || 1) AS u(s, h) GROUP BY s) g;
      n := cardinality(starts);
      counts := width_bucket(p_now_ms - p_window_ms - slice, starts) + 1;
    END IF;
    counted := counted + 1;
    UPDATE fin_rate_limits
    SET slice_starts = starts, slice_hits = hits,
        window_end = to_timestamp((starts[n] + slice + 2 * p_window_ms) / 1000.0)
    WHERE limit_key = p_key;
  END IF;
  remaining := greatest(0, p_limit - counted);
  reset_at_ms := p_now_ms;
  excess := counted - p_limit + 1;
  i := counts;
  WHILE excess > 0 AND i <= n LOOP
    excess := excess - hits[i];
    reset_at_ms := starts[i] + slice + p_window_ms;
    i := i + 1;
  END LOOP;
END
$$;
`,
};
