// The timeline for people: numbered, aligned steps with short lines; colours and a live progress bar only on a terminal.
import { redactText } from '@fin/core';
import type { DemoEvent, EventSink } from './events.js';
import { progressBar } from './sync-progress.js';

export interface TextPrinterOptions {
  /** A terminal: the progress bar is redrawn in place. */
  tty: boolean;
  /** ANSI colours (a terminal without NO_COLOR). */
  color: boolean;
}

const TITLE_WIDTH = 46;
const INDENT = '       ';

const WIDTH = 80;

/** `text` cut at spaces into lines of at most `width` characters (a longer word stays whole). */
function wrap(text: string, width: number): string[] {
  if (text.length <= width) return [text];
  const lines: string[] = [];
  let current = '';
  for (const word of text.split(' ')) {
    if (current && current.length + 1 + word.length > width) {
      lines.push(current);
      current = word;
    } else current = current ? `${current} ${word}` : word;
  }
  return [...lines, current];
}

/** `850 ms`, `2.4 s` */
export const duration = (ms: number) =>
  ms < 1000 ? `${ms} ms` : `${Math.trunc(ms / 1000)}.${Math.trunc((ms % 1000) / 100)} s`;

export function textPrinter(write: (text: string) => void, options: TextPrinterOptions): EventSink {
  const paint = (code: number) => (text: string) => (options.color ? `\x1b[${code}m${text}\x1b[0m` : text);
  const [bold, dim, red, green] = [paint(1), paint(2), paint(31), paint(32)];
  let barShown = false;
  const clearBar = () => {
    if (barShown) write('\r\x1b[K');
    barShown = false;
  };
  const line = (text = '') => write(`${redactText(text)}\n`);

  const print = (event: DemoEvent) => {
    switch (event.event) {
      case 'start':
        line(bold(`@fin demo: ${event.title}`));
        line(dim(`${event.steps} steps on loopback; CPF, IMEI and credentials are masked`));
        line();
        return;
      case 'progress':
        if (!options.tty) return; // the finished bar is one of the step's lines
        write(
          `\r\x1b[K${bold(String(event.step).padStart(3))}  ${progressBar(event.percent)}  ${event.resource} ${event.storeId ?? ''}`,
        );
        barShown = true;
        return;
      case 'step': {
        clearBar();
        const ok = event.outcome === 'ok';
        const number = String(event.step).padStart(3);
        const outcome = ok ? green('ok'.padStart(6)) : red('FAILED');
        line(
          `${bold(number)}  ${event.title.padEnd(TITLE_WIDTH)} ${outcome} ${dim(duration(event.ms).padStart(8))}`,
        );
        for (const detail of event.lines) {
          const [head, ...rest] = wrap(detail, WIDTH - INDENT.length);
          line(`${INDENT}${head}`);
          for (const more of rest) line(`${INDENT}  ${more}`);
        }
        if (event.error)
          for (const why of wrap(`✗ ${event.error}`, WIDTH - INDENT.length)) line(`${INDENT}${red(why)}`);
        return;
      }
      case 'summary': {
        clearBar();
        const counts = `${event.passed} of ${event.passed + event.failed + event.notRun} steps passed`;
        const stopped = event.serversStopped ? 'servers stopped' : red('some servers did not stop');
        line();
        line(`${bold('Summary')}  ${counts} · ${duration(event.elapsedMs)} · ${stopped}`);
        if (event.reason)
          for (const why of wrap(`Demo ${event.outcome} at ${event.reason}`, WIDTH)) line(red(why));
        else line(green('Every step passed.'));
        return;
      }
    }
  };
  return print;
}
