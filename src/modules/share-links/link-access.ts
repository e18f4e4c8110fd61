import type { Db } from '../../db/client.ts';
import type { Principal } from '../../plugins/auth.ts';
import { AppError, errors } from '../../shared/errors.ts';
import { MANAGERS, requireTeam } from '../../shared/tenancy.ts';
import { findLink, type LinkWithStatus } from './share-links.repository.ts';

/**
 * Who manages a team's review links: its owners and admins, and its own API keys (the route asks for
 * `tracks:write`). Another team's caller gets 404, a plain member 403.
 */
export async function requireTeamManager(db: Db, principal: Principal, teamId: number): Promise<void> {
  if (principal.type === 'key') {
    if (principal.teamId !== teamId) throw errors.notFound('team');
    return;
  }
  await requireTeam(db, principal, teamId, MANAGERS);
}

/** The link `id` when the caller manages its team's links; 404 for a missing link or another team's. */
export async function requireLinkManager(
  db: Db,
  principal: Principal,
  id: number,
  now: Date,
): Promise<LinkWithStatus> {
  const link = await findLink(db, id, now);
  if (!link) throw errors.notFound('share link');
  try {
    await requireTeamManager(db, principal, link.teamId);
  } catch (error) {
    // Another team's link reads as a missing one.
    if (error instanceof AppError && error.statusCode === 404) throw errors.notFound('share link');
    throw error;
  }
  return link;
}
