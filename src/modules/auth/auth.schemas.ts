import { Type } from '@sinclair/typebox';
import { Id, Timestamp, Uuid } from '../../shared/schemas.ts';

const Email = Type.String({ format: 'email', maxLength: 320 });

export const SignupBody = Type.Object({
  email: Email,
  password: Type.String({ minLength: 8, maxLength: 256 }),
  name: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
});

export const LoginBody = Type.Object({
  email: Type.String({ minLength: 1, maxLength: 320 }),
  password: Type.String({ minLength: 1, maxLength: 256 }),
});

export const RefreshBody = Type.Object({ refresh_token: Type.String({ minLength: 1, maxLength: 512 }) });

export const UserSummary = Type.Object({
  id: Uuid,
  email: Type.String(),
  name: Type.Union([Type.String(), Type.Null()]),
  emailVerified: Type.Boolean({ description: 'Whether the address was shown to be the account’s own' }),
});

export const TokenResponse = Type.Object({
  access_token: Type.String({ description: 'Short-lived JWT for `Authorization: Bearer`' }),
  refresh_token: Type.String({ description: 'Single use; exchange at /auth/refresh for a new pair' }),
  token_type: Type.Literal('Bearer'),
  expires_in: Type.Integer({ description: 'Seconds until the access token expires' }),
  user: UserSummary,
});

export const Me = Type.Object({
  id: Uuid,
  email: Type.String(),
  name: Type.Union([Type.String(), Type.Null()]),
  createdAt: Timestamp,
  emailVerified: Type.Boolean({
    description:
      'Whether the address was shown to be the account’s own: by the link mailed at sign-up (ask for a new ' +
      'one at /auth/verify-email/resend), a password reset, or an identity provider vouching for it',
  }),
  teams: Type.Array(
    Type.Object({
      id: Id,
      name: Type.String(),
      role: Type.Union([Type.Literal('owner'), Type.Literal('admin'), Type.Literal('member')]),
    }),
  ),
});

export const TokenBody = Type.Object({
  token: Type.String({ minLength: 1, maxLength: 256, description: 'The `token` of the mailed link' }),
});

export const VerifiedEmail = Type.Object({
  purpose: Type.Union([Type.Literal('verify_email'), Type.Literal('change_email')], {
    description: '`verify_email`: the address was verified; `change_email`: the account moved to it',
  }),
  email: Type.String({ description: 'The account’s (now verified) address' }),
});

export const PasswordResetBody = Type.Object({ email: Type.String({ minLength: 1, maxLength: 320 }) });

export const PasswordResetAccepted = Type.Object({
  status: Type.Literal('accepted'),
  message: Type.String(),
});

export const PasswordResetConfirmBody = Type.Object({
  token: Type.String({ minLength: 1, maxLength: 256 }),
  password: Type.String({ minLength: 8, maxLength: 256 }),
});
