import { Type } from '@sinclair/typebox';
import { PUSH_PLATFORMS } from '../../db/schema/index.ts';
import { Id, PageQuery, Timestamp, Uuid } from '../../shared/schemas.ts';
import { StringEnum } from '../../shared/string-enum.ts';

const Name = Type.String({ minLength: 1, maxLength: 200, pattern: '\\S', description: 'Not blank' });

export const Profile = Type.Object({
  id: Uuid,
  email: Type.String(),
  name: Type.Union([Type.String(), Type.Null()]),
  defaultTeamId: Type.Union([Id, Type.Null()], {
    description: 'Null when none is set or the user no longer belongs to that team',
  }),
  zeroDataRetention: Type.Boolean(),
  createdAt: Timestamp,
  updatedAt: Timestamp,
});

export const UpdateProfileBody = Type.Object({
  name: Type.Union([Name, Type.Null()], { description: 'The display name; null clears it' }),
});

export const Identity = Type.Object({
  provider: StringEnum(['password', 'oidc']),
  issuer: Type.Optional(Type.String({ description: 'The OpenID Connect issuer (oidc only)' })),
  subject: Type.Optional(Type.String({ description: 'The subject at that issuer (oidc only)' })),
  email: Type.String(),
  createdAt: Timestamp,
});

export const IdentityList = Type.Object({
  items: Type.Array(Identity),
  nextCursor: Type.Union([Type.String(), Type.Null()], {
    description: 'null once the list is complete (one entry per sign-in method: password first)',
  }),
});
export const IdentityListQuery = Type.Object(PageQuery);

export const DefaultTeamBody = Type.Object({
  teamId: Type.Union([Id, Type.Null()], { description: 'A team the user belongs to; null clears it' }),
});

export const ZeroDataRetention = Type.Object({ enabled: Type.Boolean() });

export const AppOpenedBody = Type.Object({}, { description: 'No fields; the body may be left out entirely' });
export const AppOpened = Type.Object({ lastAppOpenedAt: Timestamp });

export const PushToken = Type.Object({
  id: Id,
  token: Type.String(),
  platform: StringEnum(PUSH_PLATFORMS),
  createdAt: Timestamp,
  lastSeenAt: Timestamp,
});

const TokenField = Type.String({ minLength: 1, maxLength: 4096, description: 'The device push token' });

export const RegisterPushTokenBody = Type.Object({
  token: TokenField,
  platform: StringEnum(PUSH_PLATFORMS),
});

export const DeletePushTokenBody = Type.Object({ token: TokenField });

export const ACCOUNT_DELETION_PHRASE = 'DELETE MY ACCOUNT';

export const DeleteAccountBody = Type.Object({
  confirmation: Type.String({
    maxLength: 100,
    description: `Must be exactly "${ACCOUNT_DELETION_PHRASE}"`,
  }),
});

export const DeletionStatus = Type.Object({
  status: StringEnum(['active', 'scheduled']),
  requestedAt: Type.Union([Timestamp, Type.Null()]),
  purgeAfter: Type.Union([Timestamp, Type.Null()], {
    description: 'When the account and its data may be purged: 30 days after the request',
  }),
});

const Nullable = <T extends ReturnType<typeof Type.String>>(schema: T) => Type.Union([schema, Type.Null()]);

export const UserSession = Type.Object({
  id: Uuid,
  userAgent: Nullable(Type.String({ description: 'The User-Agent the session signed in with' })),
  ip: Nullable(
    Type.String({
      description: 'The client address of its sign-in or last refresh, behind TRUST_PROXY the forwarded one',
    }),
  ),
  createdAt: Timestamp,
  lastUsedAt: Timestamp,
  current: Type.Boolean({ description: 'The session of the token making this request' }),
});

export const UserSessionList = Type.Object({ items: Type.Array(UserSession) });
export const UserSessionParams = Type.Object({ id: Uuid });
export const EndedSessions = Type.Object({ ended: Type.Integer({ minimum: 0 }) });

export const ChangeEmailBody = Type.Object({
  email: Type.String({ format: 'email', maxLength: 320 }),
  password: Type.String({ minLength: 1, maxLength: 256, description: 'The current password' }),
});

export const PendingEmail = Type.Object({
  pendingEmail: Type.String({ description: 'The new address (normalised) the confirmation link went to' }),
  expiresAt: Timestamp,
});

export const ChangePasswordBody = Type.Object({
  currentPassword: Type.String({ minLength: 1, maxLength: 256 }),
  newPassword: Type.String({ minLength: 8, maxLength: 256 }),
});
