// @fin/pos-check: the partner checker (bin fin-pos-check) as a library: run the Partner POS, webhook or OpenID Provider checks from code and report.
export type { Check, CheckContext } from './check.js';
export { allChecks } from './checks/index.js';
export type { OidcCheckOptions, OidcLogin } from './oidc/options.js';
export { oidcChecks, runOidcCheck } from './oidc/run.js';
export type { PosCheckOptions, ProgressEvent } from './options.js';
export type { CheckReport, CheckResult, CheckStatus, Problem, Severity } from './report.js';
export { junitReport } from './reporters/junit.js';
export { terminalReport } from './reporters/terminal.js';
export { runPosCheck } from './run-checks.js';
export type { WebhookCheckOptions } from './webhook/options.js';
export { runWebhookCheck } from './webhook/run.js';
