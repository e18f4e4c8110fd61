import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { useTestContext } from '../../../../test/helpers/context.ts';
import { jobs } from '../../../db/schema/index.ts';
import { PUSH_JOB } from './push.service.ts';
import { enqueuePush, pushConfigured } from './push.ts';

const ctx = useTestContext();

describe('push without providers', () => {
  it('queues and sends nothing, even for a user with devices', async () => {
    expect(ctx.config.push).toEqual({ fcm: undefined, apns: undefined });
    expect(pushConfigured).toBe(false);
    expect(ctx.app.services.push.configured).toBe(false);
    const user = await ctx.newUser();
    for (const platform of ['ios', 'android', 'web']) {
      const res = await ctx.request({
        method: 'POST',
        url: '/api/v1/user/push-tokens',
        token: user.token,
        payload: { token: `device-${platform}-${ctx.unique()}`, platform },
      });
      expect(res.statusCode).toBe(201);
    }
    const queued = await ctx.database.db.transaction((tx) =>
      enqueuePush(tx, { userId: user.id, title: 'Hello', body: 'nobody sends this' }),
    );
    expect(queued).toBe(false);
    expect(await ctx.database.db.select().from(jobs).where(eq(jobs.type, PUSH_JOB))).toEqual([]);
  });
});
