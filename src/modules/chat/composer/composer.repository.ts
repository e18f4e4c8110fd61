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

/** Where a kind's list of targets resumes: after this sort key (the lower-case label) and id. */
export type TargetKey = [sortKey: string, id: string | number];

/** A card with the key it sorts by within its kind. */
export type KeyedCard = MentionCard & { key: TargetKey };

const after = (sortKey: SQL, id: SQL, key: TargetKey | undefined, idType: 'uuid' | 'integer') =>
  key === undefined ? undefined : sql`(${sortKey}, ${id}) > (${key[0]}, ${key[1]}::${sql.raw(idType)})`;

async function people(
  db: Db,
  teamId: number,
  where: SQL | undefined,
  limit: number,
  from?: TargetKey,
): Promise<KeyedCard[]> {
  const rows = await db
    .select({ id: users.id, name: users.name, email: users.email, sortKey: personKey })
    .from(teamMembers)
    .innerJoin(users, eq(users.id, teamMembers.userId))
    .where(and(eq(teamMembers.teamId, teamId), where, after(personKey, sql`${users.id}`, from, 'uuid')))
    .orderBy(asc(personKey), asc(users.id))
    .limit(limit);
  return rows.map((r) => ({
    kind: 'user',
    id: r.id,
    label: r.name || r.email,
    detail: r.email,
    key: [r.sortKey, r.id],
  }));
}

/** Cards of one kind from rows of its label, detail and sort key, ordered and limited in the statement. */
const asCards =
  (kind: ChatMentionKind) =>
  (rows: { id: number; label: string; detail: string | null; sortKey: string }[]): KeyedCard[] =>
    rows.map((r) => ({ kind, id: String(r.id), label: r.label, detail: r.detail, key: [r.sortKey, r.id] }));

async function trackCards(db: Db, teamId: number, where: SQL | undefined, limit: number, from?: TargetKey) {
  const sortKey = sql<string>`lower(${tracks.title})`;
  const rows = await db
    .select({ id: tracks.id, label: tracks.title, detail: tracks.artist, sortKey })
    .from(trackTeams)
    .innerJoin(tracks, eq(tracks.id, trackTeams.trackId))
    .where(
      and(
        eq(trackTeams.teamId, teamId),
        isNull(tracks.deletedAt),
        where,
        after(sortKey, sql`${tracks.id}`, from, 'integer'),
      ),
    )
    .orderBy(asc(sortKey), asc(tracks.id))
    .limit(limit);
  return asCards('track')(rows);
}

async function albumCards(db: Db, teamId: number, where: SQL | undefined, limit: number, from?: TargetKey) {
  const sortKey = sql<string>`lower(${albums.title})`;
  const rows = await db
    .select({ id: albums.id, label: albums.title, detail: albums.artist, sortKey })
    .from(albums)
    .where(and(eq(albums.teamId, teamId), where, after(sortKey, sql`${albums.id}`, from, 'integer')))
    .orderBy(asc(sortKey), asc(albums.id))
    .limit(limit);
  return asCards('album')(rows);
}

async function contactCards(db: Db, teamId: number, where: SQL | undefined, limit: number, from?: TargetKey) {
  const sortKey = sql<string>`lower(${contacts.name})`;
  const rows = await db
    .select({ id: contacts.id, label: contacts.name, detail: contacts.company, sortKey })
    .from(contacts)
    .where(and(eq(contacts.teamId, teamId), where, after(sortKey, sql`${contacts.id}`, from, 'integer')))
    .orderBy(asc(sortKey), asc(contacts.id))
    .limit(limit);
  return asCards('contact')(rows);
}

/**
 * Up to `limit` targets of each kind in the team whose name starts with `q` (any case), alphabetically; each
 * kind after its own key in `from` (people, tracks, albums, contacts).
 */
export function searchTargets(
  db: Db,
  teamId: number,
  q: string | undefined,
  limit: number,
  from: (TargetKey | null)[] = [],
) {
  const at = (i: number) => from[i] ?? undefined;
  return Promise.all([
    people(
      db,
      teamId,
      q ? sql`(${prefixed(personKey, q)} or ${prefixed(sql`lower(${users.email})`, q)})` : undefined,
      limit,
      at(0),
    ),
    trackCards(db, teamId, prefixed(sql`lower(${tracks.title})`, q), limit, at(1)),
    albumCards(db, teamId, prefixed(sql`lower(${albums.title})`, q), limit, at(2)),
    contactCards(db, teamId, prefixed(sql`lower(${contacts.name})`, q), limit, at(3)),
  ]);
}

/** One target of the team, or undefined when the team has no such target. */
export async function findTarget(
  db: Db,
  teamId: number,
  kind: ChatMentionKind,
  id: string,
): Promise<MentionCard | undefined> {
  const found = await cardsOf(db, teamId, kind, id);
  if (!found[0]) return undefined;
  const { key: _, ...card } = found[0];
  return card;
}

function cardsOf(db: Db, teamId: number, kind: ChatMentionKind, id: string): Promise<KeyedCard[]> {
  switch (kind) {
    case 'user':
      return people(db, teamId, eq(users.id, id), 1);
    case 'track':
      return trackCards(db, teamId, eq(tracks.id, Number(id)), 1);
    case 'album':
      return albumCards(db, teamId, eq(albums.id, Number(id)), 1);
    case 'contact':
      return contactCards(db, teamId, eq(contacts.id, Number(id)), 1);
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
