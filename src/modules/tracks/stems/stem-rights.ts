import type { TeamRole } from '../../../db/schema/index.ts';

/**
 * Who may fetch a restricted stem's audio besides the owning team's owners: roles of the owning team
 * (`admin`, `member`), its API keys (`api_key`), members and keys of teams the track is shared with
 * (`shared_team`) and review links that allow original downloads (`review_link`).
 */
export const STEM_DOWNLOADERS = ['admin', 'member', 'api_key', 'shared_team', 'review_link'] as const;
export type StemDownloader = (typeof STEM_DOWNLOADERS)[number];

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
