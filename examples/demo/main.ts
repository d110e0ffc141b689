// `pnpm demo`: a whole financed sale on loopback as a readable timeline (--json: the same events as JSON lines; --trace: its spans); exit 0, or 1 naming the failed step.

import { demoClock } from './src/demo-clock.js';
import { describeError } from './src/describe-error.js';
import { runJourney } from './src/journey.js';
import { jsonPrinter } from './src/json-printer.js';
import { parseOptions } from './src/options.js';
import { resources } from './src/resources.js';
import { textPrinter } from './src/text-printer.js';
import { createTimeline, StepFailure } from './src/timeline.js';
import { webhookReceiver } from './src/webhook-receiver.js';
import { workerWatch } from './src/worker-watch.js';

const options = parseOptions(process.argv.slice(2));
if ('exit' in options) {
  (options.exit === 0 ? process.stdout : process.stderr).write(options.message);
  process.exit(options.exit);
}

// Before anything creates a client or a service, whose instruments are taken when they are created.
const tracing = options.trace ? (await import('./src/trace.js')).startTracing() : undefined;
const write = (text: string) => void process.stdout.write(text);
const tty = process.stdout.isTTY === true;
const sink = options.json
  ? jsonPrinter(write)
  : textPrinter(write, { tty, color: tty && !process.env.NO_COLOR });
const clock = demoClock();
const scene = {
  options,
  clock,
  resources: resources(),
  workers: workerWatch(),
  webhooks: webhookReceiver(clock),
};
const interruption = new AbortController();
const timeline = createTimeline(sink, interruption.signal);

// Ctrl+C: stop the servers at once, so the step in progress ends and reports the interruption; twice: leave now.
const interrupt = (signal: NodeJS.Signals) => {
  if (interruption.signal.aborted) process.exit(130);
  interruption.abort(signal);
  void scene.resources.closeAll();
};
process.on('SIGINT', interrupt);
process.on('SIGTERM', interrupt);

timeline.start();
let exitCode = 0;
let reason: string | undefined;
try {
  await runJourney(timeline, scene);
} catch (error) {
  exitCode = interruption.signal.aborted ? 130 : 1;
  reason =
    error instanceof StepFailure
      ? `step ${error.step} (${error.id}): ${error.why}`
      : `an error outside the steps: ${describeError(error)}`;
}
const notStopped = await scene.resources.closeAll();
if (notStopped.length > 0 && exitCode === 0) {
  exitCode = 1;
  reason = `could not stop: ${notStopped.join(', ')}`;
}
if (tracing) {
  const spans = tracing.spans();
  const { spanTree } = await import('./src/trace.js');
  write(options.json ? spans.map((span) => `${JSON.stringify(span)}\n`).join('') : spanTree(spans));
}
timeline.summary({ exitCode, reason, serversStopped: notStopped.length === 0 });
// Once the output is flushed the demo is over, whatever a library still holds open (an abandoned request).
process.stdout.write('', () => process.exit(exitCode));
