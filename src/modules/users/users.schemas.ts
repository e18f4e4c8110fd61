import { Type } from '@sinclair/typebox';
import { PUSH_PLATFORMS } from '../../db/schema/index.ts';
import { Id, NewPassword, PageQuery, Timestamp, Uuid } from '../../shared/schemas.ts';
import { StringEnum } from '../../shared/string-enum.ts';

const Name = Type.String({ minLength: 1, maxLength: 200, pattern: '\\S', description: 'Not blank' });

/** Values the examples of the user area share. */
const USER_ID = '0193a5f2-6c1e-7b3a-9f10-3c2d4e5f6a7b';
const EMAIL = 'luna@lunavale.example';
const AT = '2026-03-14T09:30:00.000Z';

export const Profile = Type.Object(
  {
    id: Uuid,
    email: Type.String(),
    name: Type.Union([Type.String(), Type.Null()]),
    defaultTeamId: Type.Union([Id, Type.Null()], {
      description: 'Null when none is set or the user no longer belongs to that team',
    }),
    zeroDataRetention: Type.Boolean(),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  },
  {
    title: 'UserProfile',
    examples: [
      {
        id: USER_ID,
        email: EMAIL,
        name: 'Luna Vale',
        defaultTeamId: 7,
        zeroDataRetention: false,
        createdAt: AT,
        updatedAt: '2026-03-20T18:05:00.000Z',
      },
    ],
  },
);

export const UpdateProfileBody = Type.Object(
  { name: Type.Union([Name, Type.Null()], { description: 'The display name; null clears it' }) },
  { title: 'UserProfileUpdate', examples: [{ name: 'Luna Vale' }] },
);

export const Identity = Type.Object(
  {
    provider: StringEnum(['password', 'oidc']),
    issuer: Type.Optional(Type.String({ description: 'The OpenID Connect issuer (oidc only)' })),
    subject: Type.Optional(Type.String({ description: 'The subject at that issuer (oidc only)' })),
    email: Type.String(),
    createdAt: Timestamp,
  },
  {
    title: 'UserIdentity',
    examples: [
      {
        provider: 'oidc',
        issuer: 'https://id.example.com',
        subject: 'user-4711',
        email: EMAIL,
        createdAt: AT,
      },
    ],
  },
);

export const IdentityList = Type.Object(
  {
    items: Type.Array(Identity),
    nextCursor: Type.Union([Type.String(), Type.Null()], {
      description: 'null once the list is complete (one entry per sign-in method: password first)',
    }),
  },
  {
    title: 'UserIdentityList',
    examples: [
      {
        items: [
          { provider: 'password', email: EMAIL, createdAt: AT },
          {
            provider: 'oidc',
            issuer: 'https://id.example.com',
            subject: 'user-4711',
            email: EMAIL,
            createdAt: AT,
          },
        ],
        nextCursor: null,
      },
    ],
  },
);
export const IdentityListQuery = Type.Object(PageQuery);

export const DefaultTeamBody = Type.Object(
  { teamId: Type.Union([Id, Type.Null()], { description: 'A team the user belongs to; null clears it' }) },
  { title: 'UserDefaultTeamUpdate', examples: [{ teamId: 7 }] },
);

export const ZeroDataRetention = Type.Object(
  {
    enabled: Type.Boolean({
      description: 'Whether the user asked for zero data retention (a flag kept on the account)',
    }),
  },
  { title: 'UserZeroDataRetention', examples: [{ enabled: true }] },
);

export const AppOpened = Type.Object(
  { lastAppOpenedAt: Timestamp },
  { title: 'UserAppOpened', examples: [{ lastAppOpenedAt: '2026-03-20T07:45:12.000Z' }] },
);

const PUSH_TOKEN = 'EXAMPLE-device-push-token-not-real';

export const PushToken = Type.Object(
  {
    id: Id,
    token: Type.String(),
    platform: StringEnum(PUSH_PLATFORMS),
    createdAt: Timestamp,
    lastSeenAt: Timestamp,
  },
  {
    title: 'PushToken',
    examples: [
      { id: 12, token: PUSH_TOKEN, platform: 'ios', createdAt: AT, lastSeenAt: '2026-03-20T07:45:12.000Z' },
    ],
  },
);

const TokenField = Type.String({ minLength: 1, maxLength: 4096, description: 'The device push token' });

export const RegisterPushTokenBody = Type.Object(
  { token: TokenField, platform: StringEnum(PUSH_PLATFORMS) },
  { title: 'PushTokenRegister', examples: [{ token: PUSH_TOKEN, platform: 'ios' }] },
);

export const DeletePushTokenBody = Type.Object(
  { token: TokenField },
  { title: 'PushTokenDelete', examples: [{ token: PUSH_TOKEN }] },
);

export const ACCOUNT_DELETION_PHRASE = 'DELETE MY ACCOUNT';

export const DeleteAccountBody = Type.Object(
  {
    confirmation: Type.String({
      maxLength: 100,
      description: `Must be exactly "${ACCOUNT_DELETION_PHRASE}"`,
    }),
  },
  { title: 'UserAccountDelete', examples: [{ confirmation: ACCOUNT_DELETION_PHRASE }] },
);

export const DeletionStatus = Type.Object(
  {
    status: StringEnum(['active', 'scheduled']),
    requestedAt: Type.Union([Timestamp, Type.Null()]),
    purgeAfter: Type.Union([Timestamp, Type.Null()], {
      description: 'When the account and its data may be purged: 30 days after the request',
    }),
  },
  {
    title: 'UserAccountDeletionStatus',
    examples: [
      {
        status: 'scheduled',
        requestedAt: '2026-03-20T18:05:00.000Z',
        purgeAfter: '2026-04-19T18:05:00.000Z',
      },
    ],
  },
);

const Nullable = <T extends ReturnType<typeof Type.String>>(schema: T) => Type.Union([schema, Type.Null()]);

const SESSION_EXAMPLE = {
  id: '0193a5f2-b16d-7a8f-8e65-8b7c9d0e1f2a',
  userAgent: 'TeamMusic/2.4.1 (iPhone; iOS 19.3)',
  ip: '203.0.113.24',
  createdAt: AT,
  lastUsedAt: '2026-03-20T07:45:12.000Z',
  current: true,
};

export const UserSession = Type.Object(
  {
    id: Uuid,
    userAgent: Nullable(Type.String({ description: 'The User-Agent the session signed in with' })),
    ip: Nullable(
      Type.String({
        description:
          'The client address of its sign-in or last refresh, behind TRUST_PROXY the forwarded one',
      }),
    ),
    createdAt: Timestamp,
    lastUsedAt: Timestamp,
    current: Type.Boolean({ description: 'The session of the token making this request' }),
  },
  { title: 'UserSession', examples: [SESSION_EXAMPLE] },
);

export const UserSessionList = Type.Object(
  { items: Type.Array(UserSession) },
  {
    title: 'UserSessionList',
    examples: [
      {
        items: [
          SESSION_EXAMPLE,
          {
            id: '0193a5f2-c27e-7b90-9f76-9c8d0e1f2a3b',
            userAgent: 'Mozilla/5.0 (Macintosh; Intel Mac OS X 15_3) AppleWebKit/605.1.15 Safari/605.1.15',
            ip: '198.51.100.7',
            createdAt: '2026-03-02T14:10:00.000Z',
            lastUsedAt: '2026-03-19T21:30:00.000Z',
            current: false,
          },
        ],
      },
    ],
  },
);
export const UserSessionParams = Type.Object({ id: Uuid });
export const EndedSessions = Type.Object(
  { ended: Type.Integer({ minimum: 0, description: 'How many sessions ended' }) },
  { title: 'UserSessionsEndResult', examples: [{ ended: 2 }] },
);

export const ChangeEmailBody = Type.Object(
  {
    email: Type.String({ format: 'email', maxLength: 320 }),
    password: Type.String({ minLength: 1, maxLength: 256, description: 'The current password' }),
  },
  {
    title: 'UserEmailChange',
    examples: [{ email: 'luna.vale@nightdrives.example', password: 'example-current-password' }],
  },
);

export const PendingEmail = Type.Object(
  {
    pendingEmail: Type.String({ description: 'The new address (normalised) the confirmation link went to' }),
    expiresAt: Timestamp,
  },
  {
    title: 'PendingEmailChange',
    examples: [{ pendingEmail: 'luna.vale@nightdrives.example', expiresAt: '2026-03-21T18:05:00.000Z' }],
  },
);

export const ChangePasswordBody = Type.Object(
  {
    currentPassword: Type.String({ minLength: 1, maxLength: 256 }),
    newPassword: NewPassword,
  },
  {
    title: 'UserPasswordChange',
    examples: [{ currentPassword: 'example-current-password', newPassword: 'example-new-passphrase-2026' }],
  },
);
