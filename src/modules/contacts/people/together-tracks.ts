import { Type } from '@sinclair/typebox';
import { and, desc, isNull, sql } from 'drizzle-orm';
import { tracks } from '../../../db/schema/index.ts';
import { Id } from '../../../shared/schemas.ts';
import type { TogetherPart } from './together-context.ts';

/** Tracks `tracks` lists at most. */
export const TOGETHER_TRACKS_LIMIT = 50;

const TogetherTracks = Type.Array(Type.Object({ id: Id, title: Type.String(), teamId: Id }), {
  description:
    'Tracks held by a shared team that both worked on: each created the track or one of its versions, or ' +
    `is listed as its collaborator. Most recently changed first, at most ${TOGETHER_TRACKS_LIMIT}.`,
});

// Each test runs per track of the shared teams, through an index led by the track id.
const workedOn = (userId: string) => sql`(${tracks.createdBy} = ${userId}
  or exists (select 1 from track_versions v where v.track_id = ${tracks.id} and v.created_by = ${userId})
  or exists (select 1 from track_collaborators c where c.track_id = ${tracks.id} and c.user_id = ${userId}))`;

export const tracksPart: TogetherPart<typeof TogetherTracks> = {
  schema: TogetherTracks,
  async read({ db, callerId, personId, teamIds }) {
    if (teamIds.length === 0) return [];
    return db
      .select({ id: tracks.id, title: tracks.title, teamId: tracks.teamId })
      .from(tracks)
      .where(
        and(
          isNull(tracks.deletedAt),
          sql`${tracks.id} in (select tt.track_id from track_teams tt
            where tt.team_id = any(${sql.param(teamIds)}::int[]))`,
          workedOn(callerId),
          workedOn(personId),
        ),
      )
      .orderBy(desc(tracks.updatedAt), desc(tracks.id))
      .limit(TOGETHER_TRACKS_LIMIT);
  },
};
