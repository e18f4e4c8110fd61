import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { Span } from '@opentelemetry/api';
import type { FastifyBaseLogger, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ChildLoggerOptions } from 'fastify/types/logger.js';
import type { Tracing } from '../modules/operations/tracing.ts';

/**
 * The W3C trace context of a request: the caller's trace (or a new one) and the span this service answers
 * as; with tracing on, that span is an OpenTelemetry span ended with the answer.
 */
export type TraceContext = { traceId: string; spanId: string; flags: string; span?: Span };

// version-traceid-parentid-flags; a later version may append fields after a dash (W3C Trace Context, 4.3).
const TRACEPARENT = /^([0-9a-f]{2})-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})(-[^\s]*)?$/;
const ZERO_TRACE = '0'.repeat(32);
const ZERO_PARENT = '0'.repeat(16);
const TRACE = Symbol('trace context');

type Traced = IncomingMessage & { [TRACE]?: TraceContext };

const hex = (length: number) => randomUUID().replaceAll('-', '').slice(0, length);

/** The trace of a `traceparent` header, or undefined when there is none or it is not valid. */
export function parseTraceparent(
  header: unknown,
): { traceId: string; parentId: string; flags: string } | undefined {
  if (typeof header !== 'string' || header.length > 512) return undefined;
  const match = TRACEPARENT.exec(header);
  if (!match) return undefined;
  const [, version, traceId, parentId, flags, rest] = match as unknown as string[];
  if (version === 'ff' || (version === '00' && rest !== undefined)) return undefined;
  if (traceId === ZERO_TRACE || parentId === ZERO_PARENT) return undefined;
  return { traceId: traceId!, parentId: parentId!, flags: flags! };
}

/** Reads and answers the trace context of requests, and with `tracing` records each request as a span. */
export function traceContext(tracing: Tracing | undefined) {
  /** The request's trace context, read once: the caller's trace id when it sent a valid one, a new one otherwise. */
  function traceOf(raw: Traced): TraceContext {
    let context = raw[TRACE];
    if (!context) {
      const incoming = parseTraceparent(raw.headers.traceparent);
      if (tracing) {
        const parent = incoming && {
          traceId: incoming.traceId,
          spanId: incoming.parentId,
          // The sampled flag is the low bit of the trace flags.
          sampled: (Number.parseInt(incoming.flags, 16) & 1) === 1,
        };
        const span = tracing.startRequest(raw.method ?? 'GET', parent);
        const { traceId, spanId, traceFlags } = span.spanContext();
        context = { traceId, spanId, flags: traceFlags.toString(16).padStart(2, '0'), span };
      } else {
        context = { traceId: incoming?.traceId ?? hex(32), spanId: hex(16), flags: incoming?.flags ?? '00' };
      }
      raw[TRACE] = context;
    }
    return context;
  }

  return {
    /** Fastify's `childLoggerFactory`: every log line of a request carries its trace id. */
    childLoggerFactory(
      this: FastifyInstance,
      logger: FastifyBaseLogger,
      bindings: Record<string, unknown>,
      options: ChildLoggerOptions,
      raw: IncomingMessage,
    ): FastifyBaseLogger {
      return logger.child({ ...bindings, traceId: traceOf(raw).traceId }, options);
    },

    /** Answers with the trace context the service took part in, so a caller can find its request in our logs. */
    answerTraceparent(request: FastifyRequest, reply: FastifyReply): void {
      const { traceId, spanId, flags } = traceOf(request.raw);
      reply.header('traceparent', `00-${traceId}-${spanId}-${flags}`);
      const state = request.headers.tracestate;
      if (typeof state === 'string' && state.length <= 512) reply.header('tracestate', state);
    },

    /** Ends the request's span (when tracing) with its route and status. */
    endSpan(request: FastifyRequest, reply: FastifyReply): void {
      const span = (request.raw as Traced)[TRACE]?.span;
      if (!span || !tracing) return;
      tracing.endRequest(span, {
        method: request.method,
        route: request.routeOptions.url,
        operationId: (request.routeOptions.schema as { operationId?: string } | undefined)?.operationId,
        status: reply.statusCode,
      });
    },
  };
}
