import { type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { type Placeholders, preparedSelect } from '../../db/prepared.ts';
import { chatMessages } from '../../db/schema/index.ts';
import { keyIsActiveSql, sessionIsActiveSql } from '../../shared/session-state.ts';
import { KIND_WEIGHTS, RANK_WEIGHTS, type SearchKind } from './search-kinds.ts';

/** A weighted document of fields (weight, text), as the GIN indexes of migration unified_search spell it. */
const weighted = (fields: [weight: 'A' | 'B' | 'D', text: SQL][]) =>
  sql.join(
    fields.map(([weight, text]) => sql`setweight(tmw_search_vector(${text}), ${sql.raw(`'${weight}'`)})`),
    sql` || `,
  );

const ALBUM_DETAILS = sql`tmw_search_words(a.tags || array[a.artist, a.genre, a.label])`;
const CONTACT_DETAILS = sql`tmw_search_words(c.tags || array[c.company, c.role, c.email])`;

/**
 * The document each kind is matched against: the stored vectors of tracks, comments and to-dos, and for the
 * other kinds the expressions of their GIN indexes, written exactly as there.
 */
const DOCUMENTS = {
  track: sql`t.search_vector`,
  album: weighted([
    ['A', sql`a.title`],
    ['B', ALBUM_DETAILS],
    ['D', sql`a.notes`],
  ]),
  comment: sql`c.search_vector`,
  todo: sql`d.search_vector`,
  message: sql`tmw_search_vector(m.content)`,
  transcript: sql`tmw_search_vector(m.transcript)`,
  contact: weighted([
    ['A', sql`c.name`],
    ['B', CONTACT_DETAILS],
    ['D', sql`c.notes`],
  ]),
  session: weighted([
    ['A', sql`s.title`],
    ['D', sql`s.notes`],
  ]),
  interview: weighted([
    ['A', sql`i.title`],
    ['D', sql`i.intro`],
  ]),
} satisfies Record<SearchKind, SQL>;

/**
 * The text a hit's snippet is cut from, per weight of its document: the first field holding every term,
 * else the first holding any. A document without weights (comments, to-dos, chat) is all body (D).
 */
const FIELDS: Record<SearchKind, { weight: 'a' | 'b' | 'c' | 'd'; text: SQL }[]> = {
  track: [
    { weight: 'a', text: sql`t.title` },
    {
      weight: 'b',
      text: sql`tmw_track_metadata(t.artist, t.genre, t.tags, t.musical_key, t.language, t.isrc, t.label, t.distributor)`,
    },
    { weight: 'c', text: sql`t.lyrics` },
    { weight: 'd', text: sql`t.notes` },
  ],
  album: [
    { weight: 'a', text: sql`a.title` },
    { weight: 'b', text: ALBUM_DETAILS },
    { weight: 'd', text: sql`a.notes` },
  ],
  comment: [{ weight: 'd', text: sql`c.body` }],
  todo: [{ weight: 'd', text: sql`d.text` }],
  message: [{ weight: 'd', text: sql`m.content` }],
  transcript: [{ weight: 'd', text: sql`m.transcript` }],
  contact: [
    { weight: 'a', text: sql`c.name` },
    { weight: 'b', text: CONTACT_DETAILS },
    { weight: 'd', text: sql`c.notes` },
  ],
  session: [
    { weight: 'a', text: sql`s.title` },
    { weight: 'd', text: sql`s.notes` },
  ],
  interview: [
    { weight: 'a', text: sql`i.title` },
    { weight: 'd', text: sql`i.intro` },
  ],
};

export type SearchArgs = {
  /** The caller (a session's user); null for a key. */
  userId: string | null;
  sessionId: string | null;
  keyId: number | null;
  /** Only this team (a key: always its own); null: every team of the caller. */
  teamId: number | null;
  /** to_tsquery texts of `term:*` parts joined by `&` (every term) and `|` (any term). */
  allTerms: string;
  anyTerm: string;
  /** The kinds searched, as a PostgreSQL array literal (`{track,album}`). */
  kinds: string;
  limit: number;
  now: Date;
  /** Where the previous page ended (all null: the first page). */
  afterScore: number | null;
  afterKind: SearchKind | null;
  afterNumId: number | null;
  afterUuidId: string | null;
};

type P = Placeholders<SearchArgs>;

// Scalar subqueries: each query is made once per call (an init plan), and the GIN indexes take it.
const ALL = (p: P) => sql`(select to_tsquery('simple'::regconfig, tmw_fold(${p.allTerms})))`;
const ANY = (p: P) => sql`(select to_tsquery('simple'::regconfig, tmw_fold(${p.anyTerm})))`;

const wanted = (p: P, kind: SearchKind) => sql`${kind}::text = any(${p.kinds}::text[])`;
const score = (p: P, kind: SearchKind) =>
  sql`ts_rank(${sql.raw(`'${RANK_WEIGHTS}'`)}::float4[], (${DOCUMENTS[kind]}), ${ALL(p)})::float8 * ${sql.raw(String(KIND_WEIGHTS[kind]))}::float8`;
/**
 * A row hanging off the caller's tracks, read through them (`o` of team_tracks or team_versions): each
 * track's or version's own rows by their link index, then matched. The fence (offset 0) keeps the planner
 * on that path, whose cost follows the size of the caller's teams whatever the words; it cannot estimate
 * prefix queries, and through the GIN indexes a common word meets most of the table.
 */
const through = (outer: string, table: string, alias: string, link: string, columns: string) =>
  sql.raw(`${outer} o cross join lateral (select ${columns} from ${table} ${alias}
    where ${alias}.${link} = o.${link} offset 0) ${alias}`);

/** One branch of hits: kind, integer or UUID id, team, score; only rows whose document holds every term. */
function hits(p: P, kind: SearchKind, from: SQL, where: SQL, ids: { num?: SQL; uuid?: SQL; team: SQL }) {
  return sql`select ${kind}::text as kind, ${ids.num ?? sql`null::integer`} as num_id,
      ${ids.uuid ?? sql`null::uuid`} as uuid_id, ${ids.team} as team_id, ${score(p, kind)} as score
    from ${from} where ${wanted(p, kind)} and (${DOCUMENTS[kind]}) @@ ${ALL(p)} and ${where}`;
}

/** Every kind's hits the caller may read: access is the joins to `scope` (their teams) and `threads`. */
function allHits(p: P, caller: 'session' | 'key'): SQL {
  const branches = [
    hits(
      p,
      'track',
      through('team_tracks', 'tracks', 't', 'id', 't.id, t.team_id, t.deleted_at, t.search_vector'),
      sql`t.deleted_at is null`,
      {
        num: sql`t.id`,
        team: sql`t.team_id`,
      },
    ),
    hits(p, 'album', sql`albums a join scope on scope.team_id = a.team_id`, sql`true`, {
      num: sql`a.id`,
      team: sql`a.team_id`,
    }),
    hits(
      p,
      'comment',
      through('team_versions', 'version_comments', 'c', 'version_id', 'c.id, c.search_vector'),
      sql`true`,
      {
        num: sql`c.id`,
        team: sql`o.team_id`,
      },
    ),
    hits(
      p,
      'todo',
      through('team_versions', 'version_todos', 'd', 'version_id', 'd.id, d.search_vector'),
      sql`true`,
      {
        num: sql`d.id`,
        team: sql`o.team_id`,
      },
    ),
    hits(p, 'contact', sql`contacts c join scope on scope.team_id = c.team_id`, sql`true`, {
      num: sql`c.id`,
      team: sql`c.team_id`,
    }),
  ];
  if (caller === 'session') {
    const messages = sql`threads th join chat_messages m on m.thread_id = th.thread_id`;
    branches.push(
      hits(p, 'message', messages, sql`m.deleted_at is null`, { uuid: sql`m.id`, team: sql`th.team_id` }),
      hits(p, 'transcript', messages, sql`m.deleted_at is null and m.transcript_status = 'done'`, {
        uuid: sql`m.id`,
        team: sql`th.team_id`,
      }),
      hits(p, 'session', sql`studio_sessions s join scope on scope.team_id = s.team_id`, sql`true`, {
        num: sql`s.id`,
        team: sql`s.team_id`,
      }),
      hits(p, 'interview', sql`interviews i join scope on scope.team_id = i.team_id`, sql`true`, {
        num: sql`i.id`,
        team: sql`i.team_id`,
      }),
    );
  }
  return sql.join(branches, sql` union all `);
}

/**
 * The caller's teams (a session: its memberships, of `teamId` only when given; a key: its team), and for a
 * session the chat threads they see there: a team thread unless they left it (until a newer message brings
 * it back to their list, as the thread list does), any other thread only while they are a chosen member.
 */
function scopes(p: P, caller: 'session' | 'key'): SQL {
  const tracks = sql`team_tracks as materialized (select distinct tt.track_id as id
      from scope join track_teams tt on tt.team_id = scope.team_id),
    team_versions as materialized (select v.id as version_id, t.team_id from team_tracks o
      join tracks t on t.id = o.id and t.deleted_at is null join track_versions v on v.track_id = o.id)`;
  if (caller === 'key') return sql`scope as materialized (select ${p.teamId}::integer as team_id), ${tracks}`;
  return sql`scope as materialized (select m.team_id from team_members m
      where m.user_id = ${p.userId}::uuid and (${p.teamId}::integer is null or m.team_id = ${p.teamId}::integer)),
    ${tracks},
    threads as materialized (select ct.thread_id, min(ct.team_id) as team_id
      from scope join chat_thread_teams ct on ct.team_id = scope.team_id
      join chat_threads th on th.id = ct.thread_id
      left join chat_thread_members cm on cm.thread_id = ct.thread_id and cm.user_id = ${p.userId}::uuid
      where case when th.type = 'team'
        then cm.hidden_at is null or th.last_message_at > cm.hidden_at
        else cm.user_id is not null and cm.removed_at is null end
      group by ct.thread_id)`;
}

/** Hits after the cursor: by score (highest first), then kind and id. */
function afterCursor(p: P): SQL {
  return sql`(${p.afterScore}::float8 is null or h.score < ${p.afterScore}::float8
    or (h.score = ${p.afterScore}::float8 and (h.kind > ${p.afterKind}::text
      or (h.kind = ${p.afterKind}::text
        and (h.num_id > ${p.afterNumId}::integer or h.uuid_id > ${p.afterUuidId}::uuid)))))`;
}

/** The snippet text of a hit of `kind`: its first field holding every term, else any, else its first. */
function contentOf(p: P, kind: SearchKind): SQL {
  const fields = FIELDS[kind];
  if (fields.length === 1) return sql`${fields[0]!.text}`;
  const holding = (query: SQL) =>
    fields.map(
      (f) => sql`when ts_filter((${DOCUMENTS[kind]}), '{${sql.raw(f.weight)}}') @@ ${query} then ${f.text}`,
    );
  return sql`case ${sql.join(holding(ALL(p)), sql` `)} ${sql.join(holding(ANY(p)), sql` `)}
    else ${fields[0]!.text} end`;
}

const THREAD_TITLE = sql`coalesce(th.name, case th.type when 'team' then 'Team chat'
  when 'direct' then 'Direct message' when 'bot' then 'Assistant' else 'Group chat' end)`;

/** What a page's hit shows, by kind: its title, snippet text, time and the parents of its address. */
function details(p: P, caller: 'session' | 'key'): SQL {
  const row = (kind: SearchKind, select: { title: SQL; at: SQL; parents?: SQL }, from: SQL, id: SQL) =>
    sql`select ${select.title} as title, (${contentOf(p, kind)})::text as content, ${select.at} as at,
      ${select.parents ?? sql`null::integer, null::integer, null::uuid`}
    from ${from} where page.kind = ${kind}::text and ${id}`;
  const version = (alias: string, table: string) =>
    sql`${sql.raw(table)} ${sql.raw(alias)} join track_versions v on v.id = ${sql.raw(alias)}.version_id
      join tracks t on t.id = v.track_id`;
  const onTrack = sql`t.id, v.id, null::uuid`;
  const rows = [
    row('track', { title: sql`t.title`, at: sql`t.updated_at` }, sql`tracks t`, sql`t.id = page.num_id`),
    row('album', { title: sql`a.title`, at: sql`a.updated_at` }, sql`albums a`, sql`a.id = page.num_id`),
    row(
      'comment',
      { title: sql`t.title`, at: sql`c.created_at`, parents: onTrack },
      version('c', 'version_comments'),
      sql`c.id = page.num_id`,
    ),
    row(
      'todo',
      { title: sql`t.title`, at: sql`d.created_at`, parents: onTrack },
      version('d', 'version_todos'),
      sql`d.id = page.num_id`,
    ),
    row('contact', { title: sql`c.name`, at: sql`c.updated_at` }, sql`contacts c`, sql`c.id = page.num_id`),
  ];
  if (caller === 'session') {
    const onThread = sql`null::integer, null::integer, m.thread_id`;
    const messages = sql`chat_messages m join chat_threads th on th.id = m.thread_id`;
    rows.push(
      row(
        'message',
        { title: THREAD_TITLE, at: sql`m.created_at`, parents: onThread },
        messages,
        sql`m.id = page.uuid_id`,
      ),
      row(
        'transcript',
        { title: THREAD_TITLE, at: sql`m.created_at`, parents: onThread },
        messages,
        sql`m.id = page.uuid_id`,
      ),
      row(
        'session',
        { title: sql`s.title`, at: sql`s.starts_at` },
        sql`studio_sessions s`,
        sql`s.id = page.num_id`,
      ),
      row(
        'interview',
        { title: sql`i.title`, at: sql`i.updated_at` },
        sql`interviews i`,
        sql`i.id = page.num_id`,
      ),
    );
  }
  return sql.join(rows, sql` union all `);
}

function searchStatement(db: Db, p: P, caller: 'session' | 'key') {
  const page = sql`select h.* from (${allHits(p, caller)}) h where ${afterCursor(p)}
    order by h.score desc, h.kind, h.num_id, h.uuid_id limit ${p.limit}`;
  const found = sql`(with ${scopes(p, caller)}, page as materialized (${page})
    select page.kind, page.num_id, page.uuid_id, page.team_id, page.score,
      d.title, d.content, d.at, d.track_id, d.version_id, d.thread_id
    from page cross join lateral (${details(p, caller)}) d(title, content, at, track_id, version_id, thread_id)
  ) r`;
  const callerActive =
    caller === 'key'
      ? keyIsActiveSql(p.keyId, p.now)
      : sessionIsActiveSql(p.sessionId, sql`${p.userId}::uuid`, p.now);
  const fields = {
    kind: sql<SearchKind>`r.kind`,
    numId: sql<number | null>`r.num_id`.mapWith(Number),
    uuidId: sql<string | null>`r.uuid_id`,
    teamId: sql<number>`r.team_id`.mapWith(Number),
    score: sql<number>`r.score`.mapWith(Number),
    title: sql<string>`r.title`,
    content: sql<string | null>`r.content`,
    at: sql<Date>`r.at`.mapWith(chatMessages.createdAt),
    trackId: sql<number | null>`r.track_id`.mapWith(Number),
    versionId: sql<number | null>`r.version_id`.mapWith(Number),
    threadId: sql<string | null>`r.thread_id`,
    callerActive: sql<boolean>`(${callerActive})`,
  };
  const query = db.select(fields).from(found).orderBy(sql`r.score desc, r.kind, r.num_id, r.uuid_id`);
  return { fields, query };
}

const searchForSession = preparedSelect('unified_search_session', (db, p: P) =>
  searchStatement(db, p, 'session'),
);
const searchForKey = preparedSelect('unified_search_key', (db, p: P) => searchStatement(db, p, 'key'));

export type UnifiedHit = Awaited<ReturnType<typeof searchForKey>>[number];

/**
 * One page of hits of every kind the caller may read, best first, in one statement that also says whether
 * the caller's session or key is still active. A key searches its own team's key kinds only.
 */
export function searchEverything(db: Db, caller: 'session' | 'key', args: SearchArgs): Promise<UnifiedHit[]> {
  return (caller === 'key' ? searchForKey : searchForSession)(db, args);
}
