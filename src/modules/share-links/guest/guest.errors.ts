import { AppError, errors } from '../../../shared/errors.ts';

/** The errors of the guest side of review links. */
export const guestErrors = {
  /**
   * Unknown token, revoked way in, revoked or expired link, target gone: one answer for all, so a token
   * tells nothing about the link it once opened.
   */
  notFound: () => errors.notFound('review link'),
  /** The link has a password and the request carries no valid guest token for it. */
  passwordRequired: () =>
    new AppError(
      403,
      'password_required',
      'This review link has a password: unlock it with POST /api/v1/shared/{token}/unlock and send the ' +
        'guest token in the Guest-Token header',
    ),
  invalidPassword: () => new AppError(403, 'invalid_password', 'The password is not right'),
  commentsNotAllowed: () =>
    new AppError(403, 'comments_not_allowed', 'This review link does not take comments'),
};
