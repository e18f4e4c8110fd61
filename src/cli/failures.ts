import { BadBackupError } from '../backup/backup-archive.ts';
import { DataDirNotEmptyError } from '../backup/restore.ts';
import { ConfigError } from '../config.ts';
import { DataDirLockedError } from '../db/data-dir-lock.ts';
import { constraintOf, isDatabaseUnavailable, sqlState } from '../shared/db-errors.ts';
import { AppError } from '../shared/errors.ts';

/** A wrong invocation: the message, then the usage; exit code 2. */
export class UsageError extends Error {}

/** A command that cannot be done as asked (the e-mail is taken, no such team): one line; exit code 1. */
export class CommandError extends Error {}

const UNIQUE_VIOLATION = '23505';

/**
 * What `tmw` prints when a command fails: one line, never a statement, its parameters (a password hash, an
 * e-mail) or a database message that may quote them, and never a configuration secret's value.
 */
export function failureMessage(error: unknown): string {
  if (error instanceof ConfigError) return error.message;
  if (
    error instanceof UsageError ||
    error instanceof CommandError ||
    error instanceof DataDirLockedError ||
    error instanceof BadBackupError ||
    error instanceof DataDirNotEmptyError
  )
    return `tmw: ${error.message}`;
  if (error instanceof AppError) return `tmw: ${error.message}`;
  if (isDatabaseUnavailable(error)) return 'tmw: the database cannot be reached';
  const state = sqlState(error);
  if (state) {
    const constraint = constraintOf(error);
    const which = constraint ? ` (${constraint})` : '';
    return state === UNIQUE_VIOLATION
      ? `tmw: it already exists${which}`
      : `tmw: the database refused the command: SQLSTATE ${state}${which}`;
  }
  // Not one of ours: its kind only, since its message may quote anything it was given.
  return `tmw: the command failed unexpectedly (${error instanceof Error ? error.name : typeof error})`;
}
