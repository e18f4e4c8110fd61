import type {
  FastifyInstance,
  FastifyReply,
  FastifyRequest,
  HookHandlerDoneFunction,
  onResponseHookHandler,
  onSendHookHandler,
  preValidationHookHandler,
  RouteOptions,
} from 'fastify';
import fp from 'fastify-plugin';
import type { Db } from '../db/client.ts';
import type { JobQueue } from '../jobs/job-queue.ts';
import type { Clock } from '../shared/clock.ts';
import { defineIdempotencyJobs } from './idempotency/idempotency.jobs.ts';
import {
  IDEMPOTENCY_DEFAULTS,
  IdempotencyKeys,
  type IdempotencySettings,
  type RunningClaim,
} from './idempotency/idempotency-keys.ts';
import {
  IDEMPOTENCY_HEADER,
  idempotencyKeyOf,
  principalKey,
  requestHashOf,
} from './idempotency/request-fingerprint.ts';
import { answerToStore, replay } from './idempotency/stored-answer.ts';
import { hooksOf } from './route-hooks.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** Set while this request runs under a claimed `Idempotency-Key`, until its answer is stored or released. */
    idempotencyClaim: RunningClaim | null;
  }
}

type IdempotencyOptions = { db: Db; clock: Clock; jobs: JobQueue; settings?: Partial<IdempotencySettings> };

/** POST routes with an authenticated caller: anonymous ones (sign-in, sign-up, refresh) have no one to key by. */
function takesIdempotencyKeys(route: RouteOptions): boolean {
  const methods = ([] as string[]).concat(route.method);
  return (
    methods.includes('POST') && route.config?.auth !== undefined && route.config.auth.kind !== 'anonymous'
  );
}

/**
 * `Idempotency-Key` on every authenticated POST (Stripe's model): the first request with a key claims it
 * and runs; its answer (2xx or 4xx) is stored before it is sent, and the same key with the same request
 * within 24 hours gets that answer again with `Idempotent-Replayed: true`, without running the handler.
 * The key is claimed before validation, so a 400 is kept like any other client error.
 *
 * Limits: an answer is stored in `onSend`, after the handler's transaction committed, so a process dying
 * between the two leaves a claim that a retry takes over (once its lease passes) and runs again. Streamed
 * answers are not stored (the claim is released). Requests without the header, and other methods, only
 * cost a header lookup.
 */
export const idempotencyPlugin = fp<IdempotencyOptions>(
  async (app: FastifyInstance, { db, clock, jobs, settings }) => {
    const keys = new IdempotencyKeys(db, clock, { ...IDEMPOTENCY_DEFAULTS, ...settings }, (error) =>
      app.log.warn({ err: error }, 'could not renew an idempotency claim'),
    );
    defineIdempotencyJobs(jobs, db, clock);
    app.decorateRequest('idempotencyClaim', null);

    async function begin(request: FastifyRequest, reply: FastifyReply, header: string | string[]) {
      const key = idempotencyKeyOf(header);
      const principal = request.principal;
      if (!principal) return false;
      const begun = await keys.begin({ principal: principalKey(principal), key }, requestHashOf(request));
      if (begun.kind === 'run') {
        request.idempotencyClaim = begun.claim;
        return false;
      }
      replay(reply, begun.answer);
      return true;
    }

    async function finish(
      request: FastifyRequest,
      claim: RunningClaim,
      reply: FastifyReply,
      payload: unknown,
    ) {
      try {
        const answer = answerToStore(reply, payload);
        if (!answer) return await claim.release();
        if (!(await claim.store(answer)))
          request.log.warn('idempotency claim was taken over before its answer was stored');
      } catch (error) {
        // The answer still goes out; the claim's lease runs out and a retry runs again.
        request.log.error({ err: error }, 'could not store the answer of an idempotent request');
      }
    }

    const beginHook: preValidationHookHandler = (request, reply, done: HookHandlerDoneFunction) => {
      const header = request.headers[IDEMPOTENCY_HEADER];
      if (header === undefined || request.method !== 'POST') return done();
      begin(request, reply, header).then((replayed) => {
        if (!replayed) done();
      }, done);
    };

    const finishHook: onSendHookHandler = (request, reply, payload, done) => {
      const claim = request.idempotencyClaim;
      if (!claim || claim.settled) return done(null, payload);
      void finish(request, claim, reply, payload).then(() => done(null, payload));
    };

    // An answer that never went through onSend (the connection ended first): release, so a retry runs.
    const releaseHook: onResponseHookHandler = (request, _reply, done) => {
      const claim = request.idempotencyClaim;
      if (claim && !claim.settled)
        claim
          .release()
          .catch((error: unknown) =>
            request.log.error({ err: error }, 'could not release an idempotency claim'),
          );
      done();
    };

    app.addHook('onRoute', (route: RouteOptions) => {
      if (!takesIdempotencyKeys(route)) return;
      // First of the route's own hooks: a body the route refuses is a 400 answer kept like any other.
      route.preValidation = [beginHook, ...hooksOf(route.preValidation)];
      route.onSend = [...hooksOf(route.onSend), finishHook];
      route.onResponse = [...hooksOf(route.onResponse), releaseHook];
    });
  },
  { name: 'idempotency', dependencies: ['auth', 'errors', 'validation'] },
);
