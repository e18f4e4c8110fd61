import { and, isNull, sql } from 'drizzle-orm';
import type { Db } from '../../../db/client.ts';
import { albums, type ChatMentionKind, contacts, tracks, trackTeams } from '../../../db/schema/index.ts';
import { threadAudience } from '../thread-access.ts';
import type { ParsedMention } from './mentions.ts';

type Thread = { id: string; teamIds: number[] };

async function visibleIds(db: Db, thread: Thread, kind: ChatMentionKind, ids: string[]): Promise<string[]> {
  const teams = sql.param(thread.teamIds);
  const numbers = sql.param(ids.map(Number));
  switch (kind) {
    case 'user':
      return (await threadAudience(db, [thread.id], ids)).map((r) => r.userId);
    case 'track': {
      const rows = await db
        .selectDistinct({ id: trackTeams.trackId })
        .from(trackTeams)
        .innerJoin(tracks, sql`${tracks.id} = ${trackTeams.trackId}`)
        .where(
          and(
            sql`${trackTeams.teamId} = any(${teams}::int[])`,
            sql`${trackTeams.trackId} = any(${numbers}::int[])`,
            isNull(tracks.deletedAt),
          ),
        );
      return rows.map((r) => String(r.id));
    }
    case 'album': {
      const rows = await db
        .select({ id: albums.id })
        .from(albums)
        .where(and(sql`${albums.teamId} = any(${teams}::int[])`, sql`${albums.id} = any(${numbers}::int[])`));
      return rows.map((r) => String(r.id));
    }
    case 'contact': {
      const rows = await db
        .select({ id: contacts.id })
        .from(contacts)
        .where(
          and(sql`${contacts.teamId} = any(${teams}::int[])`, sql`${contacts.id} = any(${numbers}::int[])`),
        );
      return rows.map((r) => String(r.id));
    }
  }
}

/**
 * The mentions whose target the thread can see: people who see the thread; tracks (not deleted), albums
 * and contacts of its teams. The others stay plain text: a mention never reveals whether a target exists.
 */
export async function visibleMentions(db: Db, thread: Thread, mentions: ParsedMention[]) {
  if (mentions.length === 0) return mentions;
  const kinds = [...new Set(mentions.map((m) => m.kind))];
  const visible = new Set<string>();
  for (const kind of kinds) {
    const ids = mentions.filter((m) => m.kind === kind).map((m) => m.targetId);
    for (const id of await visibleIds(db, thread, kind, ids)) visible.add(`${kind}:${id}`);
  }
  return mentions
    .filter((m) => visible.has(`${m.kind}:${m.targetId}`))
    .map((m, position) => ({ ...m, position }));
}
