/** A reference or an inspiration of a track: a link to music elsewhere. */
export type Link = {
  id: number;
  kind: 'reference' | 'inspiration';
  url: string;
  platform: string | null;
  createdAt: Date | string;
};

/** A track's link as answers show it. */
export function linkView({ id, kind, url, platform, createdAt }: Link) {
  return { id, kind, url, platform, createdAt: new Date(createdAt) };
}

/** A track's links as its detail shows them: references and inspirations apart. */
export function linksByKind(links: Link[]) {
  return {
    references: links.filter((l) => l.kind === 'reference').map(linkView),
    inspirations: links.filter((l) => l.kind === 'inspiration').map(linkView),
  };
}
