import { Type } from '@sinclair/typebox';

export const Live = Type.Object({ status: Type.Literal('ok') });

const Check = Type.Union([Type.Literal('ok'), Type.Literal('failed'), Type.Literal('not_configured')], {
  description: 'ok, failed (then the answer is 503), or not_configured (not used by this deployment)',
});

export const Ready = Type.Object({
  status: Type.Union([Type.Literal('ok'), Type.Literal('unavailable')]),
  checks: Type.Object({ database: Check, redis: Check, storage: Check }),
  /** The checks that failed, for a quick look in a probe's log. */
  failed: Type.Array(Type.String()),
});
