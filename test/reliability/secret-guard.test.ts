// The secret guard itself: it must see a secret in clear, in any of its written forms, and never repeat it.
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import { describe, expect, it } from 'vitest';
import { spanText } from '../telemetry/support/otel-sdk.js';
import { findLeaks, type SecretKind } from './support/secret-guard.js';

const secrets = new Map<string, SecretKind>([
  ['52998224725', 'cpf'],
  ['490154203237518', 'imei'],
  ['tok_abcdefghijklmnop', 'token'],
]);

describe('secret guard (spec §1: logs mask CPF, IMEI and credentials)', () => {
  it('finds a CPF written bare or with its punctuation, an IMEI and a token, naming kind and channel only', () => {
    const leaks = findLeaks(
      [
        { channel: 'logger.info', text: '{"clientTaxId":"529.982.247-25"}' },
        { channel: 'stderr', text: 'imei=490154203237518 authorization: Bearer tok_abcdefghijklmnop' },
      ],
      secrets,
    );
    expect(leaks).toEqual([
      { kind: 'cpf', channel: 'logger.info' },
      { kind: 'imei', channel: 'stderr' },
      { kind: 'token', channel: 'stderr' },
    ]);
    expect(JSON.stringify(leaks)).not.toContain('52998224725');
  });

  it('accepts the masked forms the SDKs write', () => {
    const leaks = findLeaks(
      [
        {
          channel: 'logger.info',
          text: '{"clientTaxId":"***.982.247-**","imei":"***********7518","token":"[REDACTED]"}',
        },
      ],
      secrets,
    );
    expect(leaks).toEqual([]);
  });

  it('sees a secret in a span attribute or event attribute (issue 16: the leak audit covers spans)', () => {
    const exporter = new InMemorySpanExporter();
    const tracer = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] }).getTracer(
      't',
    );
    const span = tracer.startSpan('POST /v1/sales/authorize', {
      attributes: { 'client.tax_id': '52998224725' },
    });
    span.addEvent('http.attempt', { imei: '490154203237518' });
    span.end();
    expect(findLeaks([{ channel: 'spans', text: spanText(exporter.getFinishedSpans()) }], secrets)).toEqual([
      { kind: 'cpf', channel: 'spans' },
      { kind: 'imei', channel: 'spans' },
    ]);
  });
});
