import type { Scenario } from './scenario.ts';

const ALBUMS = 30;
const TRACKS = 20;
const PARALLEL = 8;

async function call<T>(url: string, token: string, method: string, body: unknown): Promise<T> {
  const res = await fetch(url, {
    method,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`${method} ${url}: ${res.status} ${await res.text()}`);
  return (await res.json()) as T;
}

/** Runs `make(i)` for i in 0..count-1, a few at a time (seeding stays quick without flooding the server). */
async function inBatches<T>(count: number, make: (i: number) => Promise<T>): Promise<T[]> {
  const out: T[] = [];
  for (let start = 0; start < count; start += PARALLEL) {
    const batch = Array.from({ length: Math.min(PARALLEL, count - start) }, (_, k) => make(start + k));
    out.push(...(await Promise.all(batch)));
  }
  return out;
}

/**
 * Seeds the team through the API (albums on its board, one album holding tracks) and answers the album
 * scenarios: the team's album list, one album with its tracks, and a reorder of that album's tracks.
 */
export async function albumScenarios(baseUrl: string, session: string, teamId: number): Promise<Scenario[]> {
  const api = `${baseUrl}/api/v1`;
  const albums = await inBatches(ALBUMS, (i) =>
    call<{ id: number }>(`${api}/albums/`, session, 'POST', {
      title: `Bench album ${i}`,
      teamId,
      artist: 'Bench',
      tags: ['bench'],
    }),
  );
  const tracks = await inBatches(TRACKS, (i) =>
    call<{ id: number }>(`${api}/tracks/`, session, 'POST', {
      title: `Bench track ${i}`,
      team_id: teamId,
      audio_file_name: 'take.wav',
    }),
  );
  const album = albums[0]!;
  const trackIds = tracks.map((t) => t.id);
  await call(`${api}/albums/${album.id}/tracks`, session, 'POST', { trackIds });
  const auth = { authorization: `Bearer ${session}` };
  return [
    {
      name: `list albums of a team (${ALBUMS})`,
      ceiling: 'page',
      path: `/api/v1/albums/?teamId=${teamId}`,
      headers: auth,
    },
    { name: `album with ${TRACKS} tracks`, ceiling: 'pk', path: `/api/v1/albums/${album.id}`, headers: auth },
    {
      name: `reorder tracks of an album (${TRACKS})`,
      path: `/api/v1/albums/${album.id}/tracks/reorder`,
      method: 'POST',
      headers: auth,
      body: JSON.stringify({
        trackOrders: [...trackIds].reverse().map((trackId, order) => ({ trackId, order })),
      }),
    },
  ];
}
