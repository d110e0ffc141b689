// The service's retention settings (DESIGN 27): the options object parsed with its defaults, and checked against the rules that still read ended rows.
import { type RetentionOptions, type RetentionPolicy, retentionPolicy } from '../ports/retention.js';
import { AUTHORIZATION_VALIDITY_MS } from '../rules/r06-expiry.js';
import type { ProposalReusePolicy } from '../rules/r11-reuse.js';
import type { ServiceLimits } from './deps.js';

const DAY_MS = 86_400_000;

/**
 * `options.retention` with defaults, refused (TypeError naming the setting) when invalid or when an ended
 * authorization would leave the live tables while a rule may still need it (decision LC-2): a late confirm
 * or the confirmation poller (validity plus `limits.confirmationGraceMs`), or an exchange's proposal reuse
 * (R-11's window in calendar days, plus one for the time zone, unless reuse is off with `limit: 0`).
 */
export function resolveRetention(
  options: RetentionOptions | undefined,
  limits: ServiceLimits,
  r11: ProposalReusePolicy,
): RetentionPolicy {
  const parsed = retentionPolicy.safeParse(options ?? {});
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new TypeError(`createFinancingService: retention.${issue.path.join('.')}: ${issue.message}`);
  }
  const policy = parsed.data;
  const needed = Math.max(
    AUTHORIZATION_VALIDITY_MS + limits.confirmationGraceMs,
    r11.limit > 0 ? (r11.windowDays + 1) * DAY_MS : 0,
  );
  if (policy.endedAuthorizationsMs < needed) {
    throw new TypeError(
      `createFinancingService: retention.endedAuthorizationsMs must be at least ${needed} ms ` +
        '(the confirmation grace and, while proposal reuse is on, the R-11 window)',
    );
  }
  return policy;
}
