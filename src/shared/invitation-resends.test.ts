import { describe, expect, it } from 'vitest';
import {
  RESENDS_PER_INVITATION,
  RESENDS_PER_SENDER,
  refundResend,
  takeResend,
} from './invitation-resends.ts';
import { RateLimits } from './rate-limits.ts';

const refusal = (work: Promise<void>) =>
  work.then(
    () => undefined,
    (error: { statusCode: number; headers?: Record<string, string> }) => error,
  );

describe('invitation resend budgets', () => {
  it('allows a few resends of one invitation, then 429 with Retry-After', async () => {
    const limits = new RateLimits();
    for (let i = 0; i < RESENDS_PER_INVITATION; i++) await takeResend(limits, 'team_invite:1', 'team:1');
    const refused = await refusal(takeResend(limits, 'team_invite:1', 'team:1'));
    expect(refused).toMatchObject({ statusCode: 429 });
    expect(Number(refused!.headers!['retry-after'])).toBeGreaterThan(0);
    // Another invitation of the same team still has its own budget.
    await takeResend(limits, 'team_invite:2', 'team:1');
  });

  it('caps the resends of one team across its invitations, and counts nothing it refuses', async () => {
    const limits = new RateLimits();
    for (let i = 0; i < RESENDS_PER_SENDER; i++) await takeResend(limits, `team_invite:${i}`, 'team:7');
    expect(await refusal(takeResend(limits, 'team_invite:new', 'team:7'))).toMatchObject({ statusCode: 429 });
    // The refused resend did not spend the new invitation's own budget.
    for (let i = 0; i < RESENDS_PER_INVITATION; i++) await takeResend(limits, 'team_invite:new', 'team:8');
    await refundResend(limits, 'team_invite:0', 'team:7');
    await takeResend(limits, 'team_invite:0', 'team:7');
  });
});
