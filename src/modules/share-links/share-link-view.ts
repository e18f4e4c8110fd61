import type { ShareLinkTokens } from './link-tokens.ts';
import type { LinkWithStatus, WayInRow } from './share-links.repository.ts';

/** The path guests open a way in at, under the service's public origin. */
export const SHARED_PATH = '/api/v1/shared/';

export type Stats = {
  opens: number;
  plays: number;
  secondsListened: number;
  downloads: number;
  comments: number;
  firstSeenAt: Date | null;
  lastSeenAt: Date | null;
};

export const statsOf = (way: WayInRow): Stats => ({
  opens: way.opens,
  plays: way.plays,
  secondsListened: way.secondsListened,
  downloads: way.downloads,
  comments: way.comments,
  firstSeenAt: way.firstSeenAt,
  lastSeenAt: way.lastSeenAt,
});

const earliest = (a: Date | null, b: Date | null) => (a === null ? b : b === null || a <= b ? a : b);
const latest = (a: Date | null, b: Date | null) => (a === null ? b : b === null || a >= b ? a : b);

/** The sums of the counts of several ways in: totals, first and last sight. */
export function sumStats(ways: readonly WayInRow[]): Stats {
  return ways.reduce<Stats>(
    (sum, way) => ({
      opens: sum.opens + way.opens,
      plays: sum.plays + way.plays,
      secondsListened: sum.secondsListened + way.secondsListened,
      downloads: sum.downloads + way.downloads,
      comments: sum.comments + way.comments,
      firstSeenAt: earliest(sum.firstSeenAt, way.firstSeenAt),
      lastSeenAt: latest(sum.lastSeenAt, way.lastSeenAt),
    }),
    {
      opens: 0,
      plays: 0,
      secondsListened: 0,
      downloads: 0,
      comments: 0,
      firstSeenAt: null,
      lastSeenAt: null,
    },
  );
}

/** Builds the tokens and URLs of ways in. */
export class WayInAddresses {
  constructor(
    private readonly tokens: ShareLinkTokens,
    /** The service's public origin, without a trailing slash. */
    private readonly baseUrl: string,
  ) {}

  tokenOf(way: Pick<WayInRow, 'publicId'>): string {
    return this.tokens.tokenOf(way.publicId);
  }

  urlOf(way: Pick<WayInRow, 'publicId'>): string {
    return `${this.baseUrl}${SHARED_PATH}${this.tokenOf(way)}`;
  }

  newPublicId(): string {
    return this.tokens.newPublicId();
  }
}

/** A recipient's way in as the API shows it. */
export const recipientView = (addresses: WayInAddresses, way: WayInRow) => ({
  id: way.id,
  email: way.email ?? '',
  token: addresses.tokenOf(way),
  url: addresses.urlOf(way),
  revokedAt: way.revokedAt,
  stats: statsOf(way),
});

/** A link as the API shows it, with its ways in (the general one and the recipients', in any order). */
export function shareLinkView(addresses: WayInAddresses, link: LinkWithStatus, ways: readonly WayInRow[]) {
  const own = ways.filter((way) => way.linkId === link.id);
  const general = own.find((way) => way.email === null);
  if (!general) throw new Error(`Share link ${link.id} has no general way in`);
  return {
    id: link.id,
    teamId: link.teamId,
    target: {
      type: link.targetType,
      trackId: link.trackId,
      versionId: link.versionId,
      albumId: link.albumId,
      trackIds: link.trackIds,
    },
    title: link.title,
    message: link.message,
    token: addresses.tokenOf(general),
    url: addresses.urlOf(general),
    expiresAt: link.expiresAt,
    hasPassword: link.passwordHash !== null,
    allowDownload: link.allowDownload,
    allowStems: link.allowStems,
    allowComments: link.allowComments,
    status: link.status,
    revokedAt: link.revokedAt,
    recipients: own
      .filter((way) => way.email !== null)
      .sort((a, b) => a.id - b.id)
      .map((way) => recipientView(addresses, way)),
    stats: sumStats(own),
    createdBy: link.createdBy,
    createdAt: link.createdAt,
    updatedAt: link.updatedAt,
  };
}

export type ShareLinkView = ReturnType<typeof shareLinkView>;
