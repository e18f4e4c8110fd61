import {
  ROOT_CONTEXT,
  type Span,
  SpanKind,
  SpanStatusCode,
  TraceFlags,
  type Tracer,
  trace,
} from '@opentelemetry/api';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BasicTracerProvider, BatchSpanProcessor } from '@opentelemetry/sdk-trace-base';
import type { TracingSettings } from '../../plugins/web.config.ts';
import { withoutTrailing } from '../../shared/text.ts';

/** The caller's place in a trace, from its `traceparent`. */
export type RemoteParent = { traceId: string; spanId: string; sampled: boolean };

/** OpenTelemetry spans of this process's requests, exported in batches over OTLP/HTTP. */
export class Tracing {
  readonly #provider: BasicTracerProvider;
  readonly #tracer: Tracer;

  constructor(settings: TracingSettings) {
    const exporter = new OTLPTraceExporter({
      url: `${withoutTrailing(settings.endpoint, (c) => c === '/')}/v1/traces`,
    });
    this.#provider = new BasicTracerProvider({
      resource: resourceFromAttributes({ 'service.name': settings.serviceName }),
      spanProcessors: [new BatchSpanProcessor(exporter, { scheduledDelayMillis: 1_000 })],
    });
    this.#tracer = this.#provider.getTracer('team-music-workspace');
  }

  /** A server span for a request, a child of the caller's span when it sent one. */
  startRequest(method: string, parent: RemoteParent | undefined): Span {
    const context = parent
      ? trace.setSpanContext(ROOT_CONTEXT, {
          traceId: parent.traceId,
          spanId: parent.spanId,
          traceFlags: parent.sampled ? TraceFlags.SAMPLED : TraceFlags.NONE,
          isRemote: true,
        })
      : ROOT_CONTEXT;
    return this.#tracer.startSpan(
      method,
      { kind: SpanKind.SERVER, attributes: { 'http.request.method': method } },
      context,
    );
  }

  /** Names the span by its route once known, records the answer and ends it. */
  endRequest(
    span: Span,
    answer: { method: string; route: string | undefined; operationId: string | undefined; status: number },
  ): void {
    if (answer.route) {
      span.updateName(`${answer.method} ${answer.route}`);
      span.setAttribute('http.route', answer.route);
    }
    if (answer.operationId) span.setAttribute('operation.id', answer.operationId);
    span.setAttribute('http.response.status_code', answer.status);
    if (answer.status >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
    span.end();
  }

  /** Sends what is buffered, then stops. */
  close(): Promise<void> {
    return this.#provider.shutdown();
  }
}
