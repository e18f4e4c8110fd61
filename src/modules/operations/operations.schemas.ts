import { Type } from '@sinclair/typebox';

export const Live = Type.Object(
  { status: Type.Literal('ok') },
  { title: 'Liveness', examples: [{ status: 'ok' }] },
);

const Check = Type.Union([Type.Literal('ok'), Type.Literal('failed'), Type.Literal('not_configured')], {
  description: 'ok, failed (then the answer is 503), or not_configured (not used by this deployment)',
});

export const Ready = Type.Object(
  {
    status: Type.Union([Type.Literal('ok'), Type.Literal('unavailable')]),
    checks: Type.Object({ database: Check, redis: Check, storage: Check }),
    /** The checks that failed, for a quick look in a probe's log. */
    failed: Type.Array(Type.String(), { description: 'The names of the checks that failed' }),
  },
  {
    title: 'Readiness',
    examples: [
      { status: 'ok', checks: { database: 'ok', redis: 'not_configured', storage: 'ok' }, failed: [] },
      {
        status: 'unavailable',
        checks: { database: 'failed', redis: 'not_configured', storage: 'ok' },
        failed: ['database'],
      },
    ],
  },
);
