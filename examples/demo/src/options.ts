// The demo's command line: --json for tools, --trace for its OpenTelemetry spans, --fault to see how a failure is reported, --help.

export interface DemoOptions {
  json: boolean;
  /** Print the demo's own OpenTelemetry spans at the end (a tree; `span` events with --json). */
  trace: boolean;
  /** `partner-pos-down`: the financing service is given a partner POS address that refuses connections. */
  fault: 'partner-pos-down' | undefined;
}

export const usage = `Usage: pnpm demo [-- --json] [-- --trace] [-- --fault=partner-pos-down]
  --json                   one JSON object per event (same events, same masking), for tools
  --trace                  record OpenTelemetry spans in memory and print them at the end,
                           one tree per trace (client call -> server request -> store, credit)
  --fault=partner-pos-down point the financing service at a partner POS that refuses connections,
                           to see how a failed step is reported (exit code 1)
`;

/** Parsed options, or what to print before exiting (0 for --help, 2 for a wrong option). */
export function parseOptions(args: readonly string[]): DemoOptions | { exit: 0 | 2; message: string } {
  const options: DemoOptions = { json: false, trace: false, fault: undefined };
  for (const arg of args) {
    if (arg === '--') continue; // `pnpm demo -- --json` passes it along
    if (arg === '--json') options.json = true;
    else if (arg === '--trace') options.trace = true;
    else if (arg === '--fault=partner-pos-down') options.fault = 'partner-pos-down';
    else if (arg === '--help' || arg === '-h') return { exit: 0, message: usage };
    else return { exit: 2, message: `unknown option ${arg}\n${usage}` };
  }
  return options;
}
