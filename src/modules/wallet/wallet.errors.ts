import { AppError } from '../../shared/errors.ts';

export type WalletPlatform = 'apple' | 'google';

/** The errors of the wallet endpoints. */
export const walletErrors = {
  /** The platform has no signing configuration on this server. */
  unavailable: (platform: WalletPlatform) =>
    new AppError(
      503,
      'wallet_unavailable',
      `${platform === 'apple' ? 'Apple' : 'Google'} Wallet passes are not configured on this server`,
    ),
  /** Unknown, expired, already used, or asked for by someone else: the same answer for each. */
  tokenInvalid: () =>
    new AppError(
      403,
      'wallet_token_invalid',
      'This wallet token is not valid: it is unknown, expired or used; ask GET /api/v1/wallet/identity for a new one',
    ),
};
