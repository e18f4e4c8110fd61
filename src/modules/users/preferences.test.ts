import { describe, expect, it } from 'vitest';
import { useTestContext } from '../../../test/helpers/context.ts';
import { PREFERENCE_DEFAULTS } from './preferences.ts';

const ctx = useTestContext();

const get = (token: string) => ctx.request({ method: 'GET', url: '/api/v1/user/preferences', token });
const patch = (token: string, payload: unknown) =>
  ctx.request({ method: 'PATCH', url: '/api/v1/user/preferences', token, payload: payload as object });

describe('user preferences', () => {
  it('starts with every default filled in', async () => {
    const user = await ctx.newUser();
    const res = await get(user.token);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      language: 'en',
      timezone: 'UTC',
      theme: 'system',
      emailNotifications: true,
      pushNotifications: true,
      weekStartsOn: 'monday',
      audioQuality: 'high',
      autoplay: true,
      discoverable: false,
      notifyOnMentions: true,
      notifyOnComments: true,
      notifyOnReviews: true,
      notifyOnInvites: true,
      notifyOnSessions: true,
      notifyOnFollowUps: true,
      notifyOnCampRsvps: true,
    });
    expect(res.json()).toEqual(PREFERENCE_DEFAULTS);
  });

  it('changes only the fields sent and answers the whole object, per user', async () => {
    const user = await ctx.newUser();
    const other = await ctx.newUser();
    const first = await patch(user.token, { theme: 'dark', autoplay: false });
    expect(first.statusCode).toBe(200);
    expect(first.json()).toEqual({ ...PREFERENCE_DEFAULTS, theme: 'dark', autoplay: false });
    const second = await patch(user.token, { weekStartsOn: 'sunday', audioQuality: 'lossless' });
    expect(second.json()).toEqual({
      ...PREFERENCE_DEFAULTS,
      theme: 'dark',
      autoplay: false,
      weekStartsOn: 'sunday',
      audioQuality: 'lossless',
    });
    expect((await get(user.token)).json()).toEqual(second.json());
    expect((await get(other.token)).json()).toEqual(PREFERENCE_DEFAULTS);
  });

  it('accepts IANA time zones, links among them, and UTC', async () => {
    const user = await ctx.newUser();
    for (const timezone of ['Europe/Berlin', 'America/Argentina/Buenos_Aires', 'Asia/Kolkata', 'UTC']) {
      const res = await patch(user.token, { timezone });
      expect(res.statusCode, timezone).toBe(200);
      expect(res.json().timezone).toBe(timezone);
    }
    expect((await patch(user.token, { timezone: 'europe/berlin' })).json().timezone).toBe('Europe/Berlin');
  });

  it('stores language tags in canonical case', async () => {
    const user = await ctx.newUser();
    expect((await patch(user.token, { language: 'en-us' })).json().language).toBe('en-US');
    expect((await patch(user.token, { language: 'zh-Hant-TW' })).json().language).toBe('zh-Hant-TW');
  });

  it('refuses a time zone that is not an IANA name, and keeps the stored one', async () => {
    const user = await ctx.newUser();
    await patch(user.token, { timezone: 'Europe/Paris' });
    for (const timezone of ['Mars/Olympus', '+01:00', 'Not a zone', '']) {
      const res = await patch(user.token, { timezone, theme: 'light' });
      expect(res.statusCode, timezone).toBe(400);
      expect(res.json().code).toBe('validation_failed');
      expect(res.json().details[0].path).toBe('/body/timezone');
    }
    expect((await get(user.token)).json()).toMatchObject({ timezone: 'Europe/Paris', theme: 'system' });
  });

  it('refuses malformed language tags', async () => {
    const user = await ctx.newUser();
    for (const language of ['en_US', 'e', '123', 'english-language-tag-that-goes-on']) {
      const res = await patch(user.token, { language });
      expect(res.statusCode, language).toBe(400);
      expect(res.json().details[0].path).toBe('/body/language');
    }
  });

  it('refuses unknown fields, wrong types, values outside the set and an empty change', async () => {
    const user = await ctx.newUser();
    const unknown = await patch(user.token, { theme: 'dark', colour: 'red' });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().details).toContainEqual({
      path: '/body/colour',
      message: 'is not an accepted field',
    });

    const outside = await patch(user.token, { theme: 'blue' });
    expect(outside.json().details).toEqual([
      { path: '/body/theme', message: 'must be one of: system, light, dark' },
    ]);

    const wrongType = await patch(user.token, { emailNotifications: 'yes' });
    expect(wrongType.statusCode).toBe(400);
    expect(wrongType.json().details[0].path).toBe('/body/emailNotifications');

    const empty = await patch(user.token, {});
    expect(empty.statusCode).toBe(400);
    expect(empty.json().code).toBe('validation_failed');

    expect((await get(user.token)).json()).toEqual(PREFERENCE_DEFAULTS);
  });
});
