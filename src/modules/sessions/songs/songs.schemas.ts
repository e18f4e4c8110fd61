import { Type } from '@sinclair/typebox';
import { Id, Page, Timestamp, Uuid } from '../../../shared/schemas.ts';
import { EXAMPLE, Nullable, OptionalTeamId, SessionParams } from '../sessions.schemas.ts';

export const SongParams = Type.Object({ ...SessionParams.properties, trackId: Id });

export const Song = Type.Object(
  {
    sessionId: Id,
    trackId: Id,
    title: Type.String(),
    artist: Nullable(Type.String()),
    statusId: Type.String({ description: "The track's status on the team's board" }),
    addedBy: Nullable(Uuid),
    addedAt: Timestamp,
  },
  {
    title: 'SessionSong',
    description: 'A track of the team worked on in the session',
    examples: [
      {
        sessionId: EXAMPLE.sessionId,
        trackId: EXAMPLE.trackId,
        title: 'Night Drive',
        artist: 'Luna Vale',
        statusId: 'recording',
        addedBy: EXAMPLE.ownerId,
        addedAt: EXAMPLE.updatedAt,
      },
    ],
  },
);
export const SongPage = Page(Song);

export const AddSongBody = Type.Object(
  {
    teamId: OptionalTeamId,
    trackId: { ...Id, description: 'A track the team holds (its own or shared with it), not deleted' },
  },
  { title: 'SessionSongAdd', examples: [{ teamId: EXAMPLE.teamId, trackId: EXAMPLE.trackId }] },
);

export const RemoveSongQuery = Type.Object({ teamId: OptionalTeamId });
