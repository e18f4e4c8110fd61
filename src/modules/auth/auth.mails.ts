import type { MailContent } from '../../mail/template.ts';

const NOT_YOU = 'If this was not you, you can ignore this message.';

/** The link that verifies the address of a new account. */
export function verifyEmailMail(url: string, validHours: number): MailContent {
  return {
    subject: 'Verify your e-mail address',
    paragraphs: [
      'Please confirm that this is your e-mail address. Until you do, invitations sent to this address ' +
        'reach your account only through their own link.',
    ],
    action: { label: 'Verify your address', url },
    footer: [`The link works once, for ${validHours} hours.`, NOT_YOU],
  };
}

/** The link that makes this address the account's new one. */
export function confirmEmailChangeMail(url: string, validHours: number): MailContent {
  return {
    subject: 'Confirm your new e-mail address',
    paragraphs: [
      'You asked to sign in with this e-mail address from now on. The change takes effect once you open ' +
        'the link below; until then you sign in with your current address.',
    ],
    action: { label: 'Confirm the new address', url },
    footer: [`The link works once, for ${validHours} hours.`, `${NOT_YOU} Nothing changes without the link.`],
  };
}

/** To the former address, once the account has moved to another one. */
export function emailChangedMail(newEmail: string): MailContent {
  return {
    subject: 'Your e-mail address was changed',
    paragraphs: [
      `The e-mail address of your account was changed to ${newEmail}. You sign in with that address from now on.`,
      'If this was not you, someone may have access to your account: reset your password from the new ' +
        'address if you can, and contact the people who run this service.',
    ],
  };
}

/** The link that sets a new password. */
export function passwordResetMail(url: string, validMinutes: number): MailContent {
  return {
    subject: 'Reset your password',
    paragraphs: ['Someone asked to reset the password of the account with this e-mail address.'],
    action: { label: 'Choose a new password', url },
    footer: [`The link works once, for ${validMinutes} minutes.`, `${NOT_YOU} Your password stays as it is.`],
  };
}

/** After the password was set (reset by mail, or changed while signed in). */
export function passwordChangedMail(everySession: boolean): MailContent {
  return {
    subject: 'Your password was changed',
    paragraphs: [
      'The password of your account was just changed.',
      everySession
        ? 'Every device that was signed in has been signed out.'
        : 'Every other device that was signed in has been signed out.',
      'If this was not you, reset your password right away with "Forgot password" and contact the people ' +
        'who run this service.',
    ],
  };
}
