import { Type } from '@sinclair/typebox';
import { Timestamp } from '../../shared/schemas.ts';

const Platform = Type.Union([Type.Literal('apple'), Type.Literal('google')]);

export const WalletIdentityOffer = Type.Object(
  {
    platforms: Type.Array(
      Type.Object({
        platform: Platform,
        available: Type.Boolean({
          description: 'false when this server has no signing setup for the platform',
        }),
      }),
    ),
    token: Type.String({
      description: 'One-time token for GET /api/v1/wallet/identity/{platform}; valid 5 minutes',
    }),
    expiresAt: Timestamp,
  },
  {
    title: 'WalletIdentityOffer',
    examples: [
      {
        platforms: [
          { platform: 'apple', available: true },
          { platform: 'google', available: false },
        ],
        token: 'EXAMPLE-one-time-wallet-token',
        expiresAt: '2026-03-14T09:35:00.000Z',
      },
    ],
  },
);

export const WalletPassParams = Type.Object({
  platform: Type.Union([Type.Literal('apple'), Type.Literal('google')], { default: 'apple' }),
});

export const WalletPassQuery = Type.Object({
  token: Type.String({ minLength: 1, maxLength: 128, pattern: '^[A-Za-z0-9_-]+$' }),
});

export const GoogleSaveLink = Type.Object(
  {
    saveUrl: Type.String({
      description: 'https://pay.google.com/gp/v/save/<JWT>: opens Google Wallet to save the pass',
    }),
  },
  {
    title: 'GoogleWalletSaveLink',
    examples: [{ saveUrl: 'https://pay.google.com/gp/v/save/EXAMPLE.jwt.not-real' }],
  },
);
