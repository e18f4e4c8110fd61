import type { Db } from '../../../db/client.ts';
import { actorOf } from '../../../events/actor.ts';
import type { EventLog } from '../../../events/event-log.ts';
import type { Principal } from '../../../plugins/auth.ts';
import { errors } from '../../../shared/errors.ts';
import { decodeIdCursor, pageOfList, toPage } from '../../../shared/pagination.ts';
import { teamEvent } from '../team-event.ts';
import { requireTrack, requireTrackForChange } from '../track-access.ts';
import { nonMembers } from '../track-teams.ts';
import * as repo from './collaborators.repository.ts';

/** Most collaborators a track lists in its groups view. */
const MAX_GROUPED = 1000;

type CollaboratorInput = { roles: string[]; name?: string; userId?: string; email?: string };

/** People who worked on a track, with their roles, and the same grouped by role. */
export class CollaboratorsService {
  constructor(
    private readonly db: Db,
    private readonly events: EventLog,
  ) {}

  async list(principal: Principal, trackId: number, page: { limit: number; cursor?: string | undefined }) {
    await requireTrack(this.db, principal, trackId);
    const rows = await repo.listCollaborators(this.db, trackId, page.limit + 1, decodeIdCursor(page.cursor));
    return toPage(rows, page.limit, (last) => last.id);
  }

  /** The collaborators grouped by role, a page of roles in alphabetical order. */
  async groups(principal: Principal, trackId: number, page: { limit: number; cursor?: string | undefined }) {
    await requireTrack(this.db, principal, trackId);
    const rows = await repo.listCollaborators(this.db, trackId, MAX_GROUPED);
    const byRole = new Map<string, typeof rows>();
    for (const row of rows)
      for (const role of row.roles) byRole.set(role, [...(byRole.get(role) ?? []), row]);
    const groups = [...byRole.entries()].map(([role, collaborators]) => ({ role, collaborators }));
    return pageOfList(groups, page, {
      key: (group): [string] => [group.role],
      shape: ['string'],
      compare: ([a], [b]) => a.localeCompare(b) || (a < b ? -1 : a > b ? 1 : 0),
    });
  }

  async add(principal: Principal, trackId: number, input: CollaboratorInput) {
    const { track } = await requireTrackForChange(this.db, principal, trackId, 'owner');
    let name = input.name?.trim();
    if (input.userId) {
      if ((await nonMembers(this.db, track.teamId, [input.userId])).length > 0)
        throw errors.validation([
          { path: '/body/userId', message: 'is not a member of the team that owns the track' },
        ]);
      const user = await repo.findUserName(this.db, input.userId);
      name ??= user?.name || user?.email;
    }
    if (!name)
      throw errors.validation([{ path: '/body/name', message: 'is required unless userId is given' }]);
    const roles = [...new Set(input.roles.map((r) => r.trim().toLowerCase()))];
    return this.db.transaction(async (tx) => {
      if (input.userId && (await repo.lockAndFindUserCollaborator(tx, trackId, input.userId)))
        throw errors.conflict('This user is a collaborator of the track already');
      const row = await repo.insertCollaborator(
        tx,
        { trackId, name: name, userId: input.userId ?? null, email: input.email ?? null, roles },
        actorOf(principal),
      );
      await this.events.record(
        tx,
        teamEvent(
          principal,
          track.teamId,
          'collaborator.added',
          { type: 'track', id: trackId },
          {
            collaboratorId: row.id,
            roles,
          },
        ),
      );
      return row;
    });
  }

  async remove(principal: Principal, trackId: number, collaboratorId: number) {
    const { track } = await requireTrackForChange(this.db, principal, trackId, 'owner');
    if (!(await repo.findCollaborator(this.db, trackId, collaboratorId)))
      throw errors.notFound('collaborator');
    await this.db.transaction(async (tx) => {
      await repo.deleteCollaborator(tx, collaboratorId);
      await this.events.record(
        tx,
        teamEvent(
          principal,
          track.teamId,
          'collaborator.removed',
          { type: 'track', id: trackId },
          {
            collaboratorId,
          },
        ),
      );
    });
  }
}
