import type { FastifyReply, FastifyRequest } from 'fastify';
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import type { Clock } from '../../shared/clock.ts';
import { type BacklogQueries, jobBacklog, poolConnections, webhookBacklog } from './metrics.repository.ts';

type Backlog = {
  jobs: Awaited<ReturnType<typeof jobBacklog>>;
  webhooks: Awaited<ReturnType<typeof webhookBacklog>>;
};

export type MetricsSources = BacklogQueries & {
  clock: Clock;
  /** Event streams this process holds open now. */
  openStreams: () => number;
  /** PostgreSQL: this process's pool (the embedded database has none). */
  pool?: { size: number; applicationName: string } | undefined;
};

/** Who made a request: no token, a session or a team API key. */
export type CallerKind = 'anonymous' | 'session' | 'key';

const LATENCY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/**
 * The Prometheus metrics of one process, in a registry of its own: requests by operation (the route's
 * operationId, never the raw URL, so ids in paths cannot grow the label set), status and kind of caller;
 * the job queue and webhook backlog read from the database at scrape time (so every process reports the
 * same shared queue); open event streams; Node's own (event-loop delay, heap, GC).
 */
export class ServiceMetrics {
  readonly registry = new Registry();
  readonly #requests: Counter<'operation' | 'method' | 'status' | 'caller'>;
  readonly #latency: Histogram<'operation' | 'method' | 'status' | 'caller'>;

  constructor(sources: MetricsSources) {
    const registers = [this.registry];
    collectDefaultMetrics({ register: this.registry, prefix: 'tmw_' });
    this.#requests = new Counter({
      name: 'tmw_http_requests_total',
      help: 'Requests answered, by operation, method, status code and kind of caller',
      labelNames: ['operation', 'method', 'status', 'caller'],
      registers,
    });
    this.#latency = new Histogram({
      name: 'tmw_http_request_duration_seconds',
      help: 'Time from the request arriving to its answer being sent, by operation, method, status and caller',
      labelNames: ['operation', 'method', 'status', 'caller'],
      buckets: LATENCY_BUCKETS,
      registers,
    });
    new Gauge({
      name: 'tmw_event_streams_open',
      help: 'Server-Sent Event streams this process holds open',
      registers,
      collect() {
        this.set(sources.openStreams());
      },
    });
    // One read of the database per scrape, shared by the gauges below (the registry collects them at once).
    let inflight: Promise<Backlog | undefined> | undefined;
    const backlog = () => {
      inflight ??= readBacklog(sources).finally(() => {
        inflight = undefined;
      });
      return inflight;
    };
    const scrapeErrors = new Counter({
      name: 'tmw_metrics_database_errors_total',
      help: 'Scrapes whose database queries (jobs, webhooks) failed; those gauges are then left out',
      registers,
    });
    const readBacklog = async (from: MetricsSources): Promise<Backlog | undefined> => {
      try {
        const now = from.clock.now();
        const [jobs, webhooks] = await Promise.all([jobBacklog(from, now), webhookBacklog(from, now)]);
        return { jobs, webhooks };
      } catch {
        scrapeErrors.inc();
        return undefined;
      }
    };
    const { pool } = sources;
    if (pool) {
      new Gauge({
        name: 'tmw_db_pool_size',
        help: 'PostgreSQL connections this process may open (DATABASE_POOL_SIZE)',
        registers,
        collect() {
          this.set(pool.size);
        },
      });
      new Gauge({
        name: 'tmw_db_pool_connections',
        help: "This process's open PostgreSQL connections by state, the scrape's own left out",
        labelNames: ['state'],
        registers,
        async collect() {
          this.reset();
          try {
            for (const { state, count } of await poolConnections(sources, pool.applicationName))
              this.set({ state }, count);
          } catch {
            scrapeErrors.inc();
          }
        },
      });
    }
    new Gauge({
      name: 'tmw_jobs',
      help: 'Background jobs by type and status (queued, running, failed), shared by every process',
      labelNames: ['type', 'status'],
      registers,
      async collect() {
        this.reset();
        for (const row of (await backlog())?.jobs ?? [])
          this.set({ type: row.type, status: row.status }, row.count);
      },
    });
    new Gauge({
      name: 'tmw_jobs_oldest_due_age_seconds',
      help: 'How long the oldest queued job of each type has been due without being taken',
      labelNames: ['type'],
      registers,
      async collect() {
        this.reset();
        for (const row of (await backlog())?.jobs ?? [])
          if (row.status === 'queued') this.set({ type: row.type }, row.oldestDueSeconds);
      },
    });
    const webhookGauge = (name: string, help: string, pick: (b: Backlog['webhooks']) => number) =>
      new Gauge({
        name,
        help,
        registers,
        async collect() {
          this.reset();
          const found = await backlog();
          if (found) this.set(pick(found.webhooks));
        },
      });
    webhookGauge(
      'tmw_webhook_deliveries_pending',
      'Webhook delivery attempts waiting to be sent (first tries and scheduled retries)',
      (b) => b.pending,
    );
    webhookGauge(
      'tmw_webhook_deliveries_oldest_pending_age_seconds',
      'Age of the oldest webhook delivery attempt still waiting',
      (b) => b.oldestPendingSeconds,
    );
    webhookGauge(
      'tmw_webhook_delivery_failures_last_hour',
      'Webhook delivery attempts that failed in the last hour',
      (b) => b.failedLastHour,
    );
  }

  /** Counts an answered request; its operation is the route's operationId (or its declared path). */
  observe(request: FastifyRequest, reply: FastifyReply): void {
    const options = request.routeOptions;
    const operation =
      (options.schema?.operationId as string | undefined) ??
      options.url ??
      (request.is404 ? 'not_found' : 'unknown');
    const labels = {
      operation,
      method: request.method,
      status: String(reply.statusCode),
      caller: callerKind(request),
    };
    this.#requests.inc(labels);
    this.#latency.observe(labels, reply.elapsedTime / 1000);
  }

  /** The exposition text and its content type. */
  async render(): Promise<{ contentType: string; body: string }> {
    return { contentType: this.registry.contentType, body: await this.registry.metrics() };
  }
}

function callerKind(request: FastifyRequest): CallerKind {
  const principal = request.principal;
  return principal === null ? 'anonymous' : principal.type;
}
