// Migration 2: rate limits as a sliding window (DESIGN 16): each key's admitted hits per slice, and the one function that admits.
import type { Migration } from './migration.js';

/**
 * `fin_rate_limit_hit` is `rules/sliding-window.ts` in SQL (the store conformance suite holds both to the
 * same answers): under the key row's lock, the slices that may still hold a hit of the last window are
 * counted, the hit is admitted if they count fewer than the limit, and only an admitted hit is logged.
 */
export const slidingWindowLimits: Migration = {
  version: 2,
  name: 'sliding-window rate limits',
  sql: /* sql */ `
DROP TABLE fin_rate_limits;
CREATE TABLE fin_rate_limits (
  limit_key     text PRIMARY KEY,
  -- Slice starts (ms since the epoch) and the hits admitted in each, oldest first.
  slice_starts  bigint[] NOT NULL,
  slice_hits    integer[] NOT NULL,
  -- When the newest slice leaves the window: the row may be purged after it.
  window_end    timestamptz NOT NULL,
  CHECK (cardinality(slice_starts) = cardinality(slice_hits))
);
CREATE INDEX fin_rate_limits_window_end ON fin_rate_limits (window_end);

CREATE FUNCTION fin_rate_limit_hit(p_key text, p_now_ms bigint, p_window_ms bigint, p_limit integer,
                                   OUT allowed boolean, OUT remaining integer, OUT reset_at_ms bigint)
LANGUAGE plpgsql AS $$
DECLARE
  slice   bigint := greatest(1, ceil(p_window_ms / 60.0)::bigint);
  current bigint := p_now_ms - (p_now_ms % slice);
  starts  bigint[];
  hits    integer[];
  counted integer;
  excess  integer;
  i       integer;
BEGIN
  INSERT INTO fin_rate_limits (limit_key, slice_starts, slice_hits, window_end)
  VALUES (p_key, '{}', '{}', to_timestamp(p_now_ms / 1000.0))
  ON CONFLICT (limit_key) DO NOTHING;
  -- The row lock serialises the hits of one key, across every instance.
  PERFORM 1 FROM fin_rate_limits WHERE limit_key = p_key FOR UPDATE;
  SELECT coalesce(array_agg(s ORDER BY s), '{}'), coalesce(array_agg(h ORDER BY s), '{}')
  INTO starts, hits
  FROM fin_rate_limits r, unnest(r.slice_starts, r.slice_hits) AS u(s, h)
  WHERE r.limit_key = p_key AND s + slice > p_now_ms - p_window_ms;
  counted := coalesce((SELECT sum(h) FROM unnest(hits) AS h), 0);
  allowed := counted < p_limit;
  IF allowed THEN
    i := array_position(starts, current);
    IF i IS NULL THEN
      SELECT array_agg(s ORDER BY s), array_agg(h ORDER BY s) INTO starts, hits
      FROM unnest(starts || current, hits || 1) AS u(s, h);
    ELSE
      hits[i] := hits[i] + 1;
    END IF;
    counted := counted + 1;
    UPDATE fin_rate_limits
    SET slice_starts = starts, slice_hits = hits,
        window_end = to_timestamp((starts[cardinality(starts)] + slice + p_window_ms) / 1000.0)
    WHERE limit_key = p_key;
  END IF;
  remaining := greatest(0, p_limit - counted);
  reset_at_ms := p_now_ms;
  excess := counted - p_limit + 1;
  FOR i IN 1 .. coalesce(cardinality(starts), 0) LOOP
    EXIT WHEN excess <= 0;
    excess := excess - hits[i];
    reset_at_ms := starts[i] + slice + p_window_ms;
  END LOOP;
END
$$;
`,
};
