import { Type } from '@sinclair/typebox';
import { Id, NewPassword, Timestamp, Uuid } from '../../shared/schemas.ts';

const Email = Type.String({ format: 'email', maxLength: 320 });

/** Values the examples of the auth area share; tokens are obviously not real ones. */
const USER_ID = '0193a5f2-6c1e-7b3a-9f10-3c2d4e5f6a7b';
const EMAIL = 'luna@lunavale.example';
const PASSWORD = 'example-passphrase-2026';
const MAIL_TOKEN = 'EXAMPLE-mailed-link-token-not-real';

export const SignupBody = Type.Object(
  {
    email: Email,
    password: NewPassword,
    name: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
  },
  { title: 'AuthSignup', examples: [{ email: EMAIL, password: PASSWORD, name: 'Luna Vale' }] },
);

export const LoginBody = Type.Object(
  {
    email: Type.String({
      minLength: 1,
      maxLength: 320,
      description:
        'The account’s address, in any case; not checked as an address: one that is not matches no account',
    }),
    password: Type.String({ minLength: 1, maxLength: 256 }),
  },
  { title: 'AuthLogin', examples: [{ email: EMAIL, password: PASSWORD }] },
);

export const RefreshBody = Type.Object(
  { refresh_token: Type.String({ minLength: 1, maxLength: 512 }) },
  { title: 'AuthRefresh', examples: [{ refresh_token: 'EXAMPLE-refresh-token-not-real' }] },
);

const USER_SUMMARY = { id: USER_ID, email: EMAIL, name: 'Luna Vale', emailVerified: true };

export const UserSummary = Type.Object(
  {
    id: Uuid,
    email: Type.String(),
    name: Type.Union([Type.String(), Type.Null()]),
    emailVerified: Type.Boolean({ description: 'Whether the address was shown to be the account’s own' }),
  },
  { title: 'AuthUser', examples: [USER_SUMMARY] },
);

export const TokenResponse = Type.Object(
  {
    access_token: Type.String({ description: 'Short-lived JWT for `Authorization: Bearer`' }),
    refresh_token: Type.String({ description: 'Single use; exchange at /auth/refresh for a new pair' }),
    token_type: Type.Literal('Bearer'),
    expires_in: Type.Integer({ description: 'Seconds until the access token expires' }),
    user: UserSummary,
  },
  {
    title: 'AuthTokens',
    examples: [
      {
        access_token: 'EXAMPLE.access-token.not-real',
        refresh_token: 'EXAMPLE-refresh-token-not-real',
        token_type: 'Bearer',
        expires_in: 900,
        user: USER_SUMMARY,
      },
    ],
  },
);

export const Me = Type.Object(
  {
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
  },
  {
    title: 'CurrentUser',
    examples: [
      {
        id: USER_ID,
        email: EMAIL,
        name: 'Luna Vale',
        createdAt: '2026-03-14T09:30:00.000Z',
        emailVerified: true,
        teams: [
          { id: 7, name: 'Luna Vale', role: 'owner' },
          { id: 9, name: 'Night Drives Studio', role: 'member' },
        ],
      },
    ],
  },
);

export const TokenBody = Type.Object(
  { token: Type.String({ minLength: 1, maxLength: 256, description: 'The `token` of the mailed link' }) },
  { title: 'EmailVerify', examples: [{ token: MAIL_TOKEN }] },
);

export const VerifiedEmail = Type.Object(
  {
    purpose: Type.Union([Type.Literal('verify_email'), Type.Literal('change_email')], {
      description: '`verify_email`: the address was verified; `change_email`: the account moved to it',
    }),
    email: Type.String({ description: 'The account’s (now verified) address' }),
  },
  { title: 'EmailVerifyResult', examples: [{ purpose: 'verify_email', email: EMAIL }] },
);

export const PasswordResetBody = Type.Object(
  {
    email: Type.String({
      minLength: 1,
      maxLength: 320,
      description: 'The account’s address; the answer is the same whether an account has it or not',
    }),
  },
  { title: 'PasswordResetRequest', examples: [{ email: EMAIL }] },
);

export const PasswordResetAccepted = Type.Object(
  {
    status: Type.Literal('accepted'),
    message: Type.String(),
  },
  {
    title: 'PasswordResetAccepted',
    examples: [
      {
        status: 'accepted',
        message: 'If an account uses this address, a link to reset its password is on its way',
      },
    ],
  },
);

export const PasswordResetConfirmBody = Type.Object(
  {
    token: Type.String({ minLength: 1, maxLength: 256 }),
    password: NewPassword,
  },
  {
    title: 'PasswordResetConfirm',
    examples: [{ token: MAIL_TOKEN, password: 'example-new-passphrase-2026' }],
  },
);
