// The timeline for tools (--json): one JSON object a line, every event passed through redact.
import { redact } from '@fin/core';
import type { EventSink } from './events.js';

export function jsonPrinter(write: (text: string) => void): EventSink {
  return (event) => write(`${JSON.stringify(redact(event))}\n`);
}
