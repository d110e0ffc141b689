// What the demo reports, one event at a time: the text timeline and the --json lines print the same events.
import type { StepId } from './steps.js';

/** Plain JSON, already masked: no CPF, IMEI or credential in clear. */
export type EventData = Record<string, string | number | boolean | null>;

export type DemoEvent =
  | { event: 'start'; title: string; steps: number }
  /** A page of the catalog sync: drawn as a progress bar on a terminal. */
  | {
      event: 'progress';
      step: number;
      id: StepId;
      resource: string;
      storeId: string | null;
      percent: number;
      pages: number;
    }
  | {
      event: 'step';
      step: number;
      id: StepId;
      title: string;
      outcome: 'ok' | 'failed';
      ms: number;
      /** What happened, one short line each, for people. */
      lines: string[];
      data: EventData;
      error?: string;
    }
  | {
      event: 'summary';
      outcome: 'ok' | 'failed' | 'interrupted';
      passed: number;
      failed: number;
      notRun: number;
      elapsedMs: number;
      serversStopped: boolean;
      exitCode: number;
      /** Why the demo did not pass, naming the step. */
      reason?: string;
    };

export type EventSink = (event: DemoEvent) => void;
