// The service's retention settings (DESIGN 27): the options object parsed with its defaults, and checked against the rules that still read ended rows.

import type { ServiceLimits } from '../deps/service-deps.js';
import { type RetentionOptions, type RetentionPolicy, retentionPolicy } from '../ports/retention.js';
import { AUTHORIZATION_VALIDITY_MS } from '../rules/r06-expiry.js';
import type { ProposalReusePolicy } from '../rules/r11-reuse.js';

const DAY_MS = 86_400_000;

/**
 * `options.retention` with defaults, refused (TypeError naming the setting) when invalid or when an ended
 * authorization would leave the live tables while a rule may still need it (decision LC-2): an expired one
 * while a late confirm or the confirmation poller may still confirm it (validity plus
 * `limits.confirmationGraceMs`), a cancelled one while an exchange may reuse its proposal (R-11's window in
 * calendar days, plus one for the time zone, unless reuse is off with `limit: 0`). A retention left to its
 * default is raised to that floor instead, so a longer R-11 window or grace alone never stops the service.
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
  const confirmable = AUTHORIZATION_VALIDITY_MS + limits.confirmationGraceMs;
  const reusable = r11.limit > 0 ? (r11.windowDays + 1) * DAY_MS : 0;
  const policy = {
    ...parsed.data,
    ...(options?.expiredAuthorizationsMs === undefined && {
      expiredAuthorizationsMs: Math.max(parsed.data.expiredAuthorizationsMs, confirmable),
    }),
    ...(options?.cancelledAuthorizationsMs === undefined && {
      cancelledAuthorizationsMs: Math.max(parsed.data.cancelledAuthorizationsMs, reusable),
    }),
  };
  if (policy.expiredAuthorizationsMs < confirmable) {
    throw new TypeError(
      `createFinancingService: retention.expiredAuthorizationsMs must be at least ${confirmable} ms ` +
        '(an expired authorization may still be confirmed within limits.confirmationGraceMs)',
    );
  }
  if (policy.cancelledAuthorizationsMs < reusable) {
    throw new TypeError(
      `createFinancingService: retention.cancelledAuthorizationsMs must be at least ${reusable} ms ` +
        "(R-11's reuse window, in calendar days; set rules.r11.limit to 0 to turn reuse off)",
    );
  }
  return policy;
}
