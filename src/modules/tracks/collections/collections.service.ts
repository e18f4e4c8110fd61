import type { Db } from '../../../db/client.ts';
import type { Principal } from '../../../plugins/auth.ts';
import { isKeyInt, isKeyText } from '../../../shared/cursor-values.ts';
import { decodeCursor, toPage } from '../../../shared/pagination.ts';
import { sessionUserId } from '../../../shared/tenancy.ts';
import { MAX_PICKER_TRACKS, type TeamKey, teamsOfUser, tracksHeldBy } from './collections.ts';

const isTeamKey = (value: unknown): value is TeamKey =>
  Array.isArray(value) && value.length === 2 && isKeyText(value[0]) && isKeyInt(value[1]);

type PickerTrack = { id: number; title: string; artist: string | null; position: number };

/** The caller's tracks across all their teams, grouped per team and status, as a track picker shows them. */
export class TrackCollectionsService {
  constructor(private readonly db: Db) {}

  /** A page of the caller's teams by name, each with its tracks. */
  async list(principal: Principal, page: { limit: number; cursor?: string | undefined }) {
    const userId = sessionUserId(principal);
    const teamPage = toPage(
      await teamsOfUser(this.db, userId, decodeCursor(page.cursor, isTeamKey), page.limit + 1),
      page.limit,
      (last): TeamKey => [last.name, last.id],
    );
    const myTeams = teamPage.items;
    const rows = await tracksHeldBy(
      this.db,
      myTeams.map((t) => t.id),
      MAX_PICKER_TRACKS + 1,
    );
    const truncated = rows.length > MAX_PICKER_TRACKS;
    const byTeam = new Map<number, typeof rows>();
    for (const row of rows.slice(0, MAX_PICKER_TRACKS))
      byTeam.set(row.heldBy, [...(byTeam.get(row.heldBy) ?? []), row]);
    const items = myTeams.map((team) => {
      const held = byTeam.get(team.id) ?? [];
      const pick = ({ id, title, artist, position }: PickerTrack) => ({ id, title, artist, position });
      return {
        teamId: team.id,
        teamName: team.name,
        statuses: team.statusConfig.tracks.map((status) => ({
          statusId: status.id,
          name: status.name,
          tracks: held.filter((t) => t.teamId === team.id && t.statusId === status.id).map(pick),
        })),
        shared: held.filter((t) => t.teamId !== team.id).map(pick),
      };
    });
    return { items, nextCursor: teamPage.nextCursor, truncated };
  }
}
