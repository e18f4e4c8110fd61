import { type Static, Type } from '@sinclair/typebox';
import type { ErrorDetail } from '../../shared/errors.ts';
import { StringEnum } from '../../shared/string-enum.ts';

/**
 * The closed set of user preferences, each with its type and default. Only the fields a user changed are
 * stored (`users.preferences`); reads fill in the defaults, so a default can change without a migration.
 */
export const PREFERENCE_DEFAULTS = {
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
} as const;

const defaultNote = (field: keyof typeof PREFERENCE_DEFAULTS) =>
  `Default: ${JSON.stringify(PREFERENCE_DEFAULTS[field])}.`;

const notifyOn = (field: keyof typeof PREFERENCE_DEFAULTS, when: string) =>
  Type.Boolean({
    description: `Notify me (in the app, and by push when pushNotifications is on) when ${when}. ${defaultNote(field)}`,
  });

// No `default` keywords here: the validator fills those in, which would turn a partial update into a reset.
const fields = {
  language: Type.String({
    minLength: 2,
    maxLength: 35,
    pattern: '^[A-Za-z]{2,3}(?:-[A-Za-z0-9]{1,8})*$',
    description: `BCP 47 language tag such as en, de-CH or zh-Hant-TW; stored in canonical case (en-us becomes en-US). ${defaultNote('language')}`,
  }),
  timezone: Type.String({
    minLength: 1,
    maxLength: 64,
    description: `IANA time-zone name such as Europe/Berlin, or UTC; offsets like +01:00 are not accepted. ${defaultNote('timezone')}`,
  }),
  theme: StringEnum(['system', 'light', 'dark'], { description: defaultNote('theme') }),
  emailNotifications: Type.Boolean({
    description: `E-mail notifications on or off. ${defaultNote('emailNotifications')}`,
  }),
  pushNotifications: Type.Boolean({
    description: `Push notifications on or off. ${defaultNote('pushNotifications')}`,
  }),
  weekStartsOn: StringEnum(['monday', 'sunday'], { description: defaultNote('weekStartsOn') }),
  audioQuality: StringEnum(['standard', 'high', 'lossless'], {
    description: `Streaming quality. ${defaultNote('audioQuality')}`,
  }),
  autoplay: Type.Boolean({ description: `Play the next track automatically. ${defaultNote('autoplay')}` }),
  discoverable: Type.Boolean({
    description: `Whether people outside your teams may find you by your e-mail address (contacts' platform-user lookup). ${defaultNote('discoverable')}`,
  }),
  notifyOnMentions: notifyOn('notifyOnMentions', 'someone mentions you in chat or in a track comment'),
  notifyOnComments: notifyOn('notifyOnComments', 'someone comments on your track or replies to your comment'),
  notifyOnReviews: notifyOn(
    'notifyOnReviews',
    'you are asked to review a version, or a reviewer decides on yours',
  ),
  notifyOnInvites: notifyOn('notifyOnInvites', 'a team invites your e-mail address'),
  notifyOnSessions: notifyOn('notifyOnSessions', 'you are invited to a studio session'),
  notifyOnFollowUps: notifyOn('notifyOnFollowUps', 'one of your follow-up tasks falls due'),
  notifyOnCampRsvps: notifyOn('notifyOnCampRsvps', 'someone answers a camp of an organisation you manage'),
};

export const Preferences = Type.Object(fields, {
  title: 'UserPreferences',
  description: 'Every preference, defaults filled in',
  examples: [{ ...PREFERENCE_DEFAULTS, language: 'de-CH', timezone: 'Europe/Zurich', theme: 'dark' }],
});
export type Preferences = Static<typeof Preferences>;

export const PreferencesPatch = Type.Partial(Type.Object(fields), {
  title: 'UserPreferencesUpdate',
  minProperties: 1,
  description: 'The preferences to change (at least one); fields not sent keep their value',
  examples: [{ timezone: 'Europe/Zurich', theme: 'dark', notifyOnComments: false }],
});
export type PreferencesPatch = Static<typeof PreferencesPatch>;

const PREFERENCE_KEYS = Object.keys(PREFERENCE_DEFAULTS) as (keyof Preferences)[];

/** The stored preferences over the defaults; stored keys outside the closed set are ignored. */
export function withDefaults(stored: Record<string, unknown>): Preferences {
  const known = PREFERENCE_KEYS.filter((key) => key in stored).map((key) => [key, stored[key]]);
  return { ...PREFERENCE_DEFAULTS, ...Object.fromEntries(known) } as Preferences;
}

const TIME_ZONES = new Set([...Intl.supportedValuesOf('timeZone'), 'UTC']);

/**
 * The zone name to store, or null when it is not an IANA zone. Checked against `Intl.supportedValuesOf`, after
 * resolution, so links this runtime knows under an older canonical name (Asia/Kolkata, Europe/Kyiv) pass.
 */
export function normaliseTimeZone(value: string): string | null {
  let resolved: string;
  try {
    resolved = new Intl.DateTimeFormat('en', { timeZone: value }).resolvedOptions().timeZone;
  } catch {
    return null;
  }
  if (!TIME_ZONES.has(resolved)) return null;
  return resolved.toLowerCase() === value.toLowerCase() ? resolved : value;
}

/** The language tag in canonical case, or null when it is not a well-formed BCP 47 tag. */
export function normaliseLanguage(value: string): string | null {
  try {
    return Intl.getCanonicalLocales(value)[0] ?? null;
  } catch {
    return null;
  }
}

/** Checks what the schema cannot (real zones, well-formed tags) and returns the patch in stored form. */
export function normalisePatch(patch: PreferencesPatch): {
  patch: PreferencesPatch;
  problems: ErrorDetail[];
} {
  const problems: ErrorDetail[] = [];
  const out = { ...patch };
  if (patch.timezone !== undefined) {
    const zone = normaliseTimeZone(patch.timezone);
    if (zone) out.timezone = zone;
    else
      problems.push({
        path: '/body/timezone',
        message: 'is not an IANA time-zone name (e.g. Europe/Berlin)',
      });
  }
  if (patch.language !== undefined) {
    const tag = normaliseLanguage(patch.language);
    if (tag) out.language = tag;
    else
      problems.push({ path: '/body/language', message: 'is not a BCP 47 language tag (e.g. en or de-CH)' });
  }
  return { patch: out, problems };
}
