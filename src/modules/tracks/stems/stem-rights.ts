import { Type } from '@sinclair/typebox';
import type { TeamRole } from '../../../db/schema/index.ts';
import type { Principal } from '../../../plugins/auth.ts';
import type { TrackAccess } from '../track-access.ts';

/**
 * Who may fetch a restricted stem's audio besides the owning team's owners: roles of the owning team
 * (`admin`, `member`), its API keys (`api_key`), members and keys of teams the track is shared with
 * (`shared_team`) and review links that allow original downloads (`review_link`).
 */
export const STEM_DOWNLOADERS = ['admin', 'member', 'api_key', 'shared_team', 'review_link'] as const;
export type StemDownloader = (typeof STEM_DOWNLOADERS)[number];

/** One of `STEM_DOWNLOADERS`, as request, answer and event schemas name it. */
export const StemDownloaderSchema = Type.Union(
  STEM_DOWNLOADERS.map((d) => Type.Literal(d)),
  {
    description:
      'A role of the owning team (admin, member), its API keys (api_key), teams the track is shared with ' +
      '(shared_team), review links (review_link)',
  },
);

/** Who is asking for a stem's audio. */
export type StemViewer =
  | { kind: 'member'; role: TeamRole }
  | { kind: 'api_key' }
  | { kind: 'shared_team' }
  | { kind: 'review_link' };

export type StemRights = { restricted: boolean; downloadableBy: readonly string[] };

/** Whether `viewer` may fetch the audio of a stem with these rights (an unrestricted stem: whoever sees it). */
export function mayDownloadStem(stem: StemRights, viewer: StemViewer): boolean {
  if (!stem.restricted) return true;
  switch (viewer.kind) {
    case 'member':
      return viewer.role === 'owner' || stem.downloadableBy.includes(viewer.role);
    case 'api_key':
      return stem.downloadableBy.includes('api_key');
    case 'shared_team':
      return stem.downloadableBy.includes('shared_team');
    case 'review_link':
      return stem.downloadableBy.includes('review_link');
  }
}

/**
 * What a caller who sees the track is to its stems: a member of the owning team by role, a key of the owning
 * team, or (a member or key of) a team the track is shared with, whatever their role there.
 */
export function stemViewerOf(
  principal: Principal,
  access: Pick<TrackAccess, 'ownerRole' | 'ownerTeam'>,
): StemViewer {
  if (principal.type === 'key') return access.ownerTeam ? { kind: 'api_key' } : { kind: 'shared_team' };
  return access.ownerRole ? { kind: 'member', role: access.ownerRole } : { kind: 'shared_team' };
}

/** The downloaders in the catalogue's order, each once: how the rights are stored and shown. */
export function orderedDownloaders(downloaders: readonly string[]): StemDownloader[] {
  return STEM_DOWNLOADERS.filter((d) => downloaders.includes(d));
}
