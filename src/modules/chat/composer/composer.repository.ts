import { and, asc, eq, isNull, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../../db/client.ts';
import {
  albums,
  type ChatMentionKind,
  contacts,
  teamMembers,
  tracks,
  trackTeams,
  users,
} from '../../../db/schema/index.ts';

/** What the composer shows of a mention target. */
export type MentionCard = { kind: ChatMentionKind; id: string; label: string; detail: string | null };

// starts_with takes the prefix literally: no LIKE wildcards to escape.
const prefixed = (key: SQL, q: string | undefined) =>
  q === undefined || q === '' ? undefined : sql`starts_with(${key}, lower(${q}))`;

const personKey = sql<string>`lower(coalesce(nullif(${users.name}, ''), ${users.email}))`;

async function people(db: Db, teamId: number, where: SQL | undefined, limit: number): Promise<MentionCard[]> {
  const rows = await db
    .select({ id: users.id, name: users.name, email: users.email })
    .from(teamMembers)
    .innerJoin(users, eq(users.id, teamMembers.userId))
    .where(and(eq(teamMembers.teamId, teamId), where))
    .orderBy(asc(personKey), asc(users.id))
    .limit(limit);
  return rows.map((r) => ({ kind: 'user', id: r.id, label: r.name || r.email, detail: r.email }));
}

async function trackCards(db: Db, teamId: number, where: SQL | undefined, limit: number) {
  const rows = await db
    .select({ id: tracks.id, title: tracks.title, artist: tracks.artist })
    .from(trackTeams)
    .innerJoin(tracks, eq(tracks.id, trackTeams.trackId))
    .where(and(eq(trackTeams.teamId, teamId), isNull(tracks.deletedAt), where))
    .orderBy(asc(sql`lower(${tracks.title})`), asc(tracks.id))
    .limit(limit);
  return rows.map(
    (r): MentionCard => ({ kind: 'track', id: String(r.id), label: r.title, detail: r.artist }),
  );
}

async function albumCards(db: Db, teamId: number, where: SQL | undefined, limit: number) {
  const rows = await db
    .select({ id: albums.id, title: albums.title, artist: albums.artist })
    .from(albums)
    .where(and(eq(albums.teamId, teamId), where))
    .orderBy(asc(sql`lower(${albums.title})`), asc(albums.id))
    .limit(limit);
  return rows.map(
    (r): MentionCard => ({ kind: 'album', id: String(r.id), label: r.title, detail: r.artist }),
  );
}

async function contactCards(db: Db, teamId: number, where: SQL | undefined, limit: number) {
  const rows = await db
    .select({ id: contacts.id, name: contacts.name, company: contacts.company })
    .from(contacts)
    .where(and(eq(contacts.teamId, teamId), where))
    .orderBy(asc(sql`lower(${contacts.name})`), asc(contacts.id))
    .limit(limit);
  return rows.map(
    (r): MentionCard => ({ kind: 'contact', id: String(r.id), label: r.name, detail: r.company }),
  );
}

/** Up to `limit` targets of each kind in the team whose name starts with `q` (any case), alphabetically. */
export function searchTargets(db: Db, teamId: number, q: string | undefined, limit: number) {
  return Promise.all([
    people(
      db,
      teamId,
      q ? sql`(${prefixed(personKey, q)} or ${prefixed(sql`lower(${users.email})`, q)})` : undefined,
      limit,
    ),
    trackCards(db, teamId, prefixed(sql`lower(${tracks.title})`, q), limit),
    albumCards(db, teamId, prefixed(sql`lower(${albums.title})`, q), limit),
    contactCards(db, teamId, prefixed(sql`lower(${contacts.name})`, q), limit),
  ]);
}

/** One target of the team, or undefined when the team has no such target. */
export async function findTarget(
  db: Db,
  teamId: number,
  kind: ChatMentionKind,
  id: string,
): Promise<MentionCard | undefined> {
  switch (kind) {
    case 'user':
      return (await people(db, teamId, eq(users.id, id), 1))[0];
    case 'track':
      return (await trackCards(db, teamId, eq(tracks.id, Number(id)), 1))[0];
    case 'album':
      return (await albumCards(db, teamId, eq(albums.id, Number(id)), 1))[0];
    case 'contact':
      return (await contactCards(db, teamId, eq(contacts.id, Number(id)), 1))[0];
  }
}

export type Person = { id: string; name: string | null; email: string; nameKey: string };

/** The team's members but `exceptUserId`, alphabetically after the cursor `[nameKey, id]`. */
export function teamPeople(
  db: Db,
  teamId: number,
  exceptUserId: string,
  after: [string, string] | undefined,
  limit: number,
): Promise<Person[]> {
  return db
    .select({ id: users.id, name: users.name, email: users.email, nameKey: personKey })
    .from(teamMembers)
    .innerJoin(users, eq(users.id, teamMembers.userId))
    .where(
      and(
        eq(teamMembers.teamId, teamId),
        sql`${teamMembers.userId} <> ${exceptUserId}::uuid`,
        after ? sql`(${personKey}, ${users.id}) > (${after[0]}, ${after[1]}::uuid)` : undefined,
      ),
    )
    .orderBy(asc(personKey), asc(users.id))
    .limit(limit);
}
