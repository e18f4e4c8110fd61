import { eq } from 'drizzle-orm';
import { albumHelpers } from '../../../test/helpers/albums.ts';
import type { TestContext, TestTeam, TestUser } from '../../../test/helpers/context.ts';
import { chatMessages } from '../../db/schema/index.ts';
import { chatHelpers } from '../chat/chat.test-support.ts';
import { contactHelpers } from '../contacts/contacts.test-support.ts';
import { interviewHelpers } from '../interviews/interviews.test-support.ts';
import { sessionHelpers } from '../sessions/sessions.test-support.ts';

export type Hit = {
  kind: string;
  id: number | string;
  teamId: number;
  title: string;
  snippet: string;
  highlights: { start: number; length: number }[];
  link: { href: string };
  score: number;
  at: string;
};

/** Data of every searchable kind, made through the API as clients make it, and the search itself. */
export function searchHelpers(ctx: TestContext) {
  const chat = chatHelpers(ctx);

  async function write(method: 'POST' | 'PATCH', url: string, token: string, payload: object) {
    const res = await ctx.request({ method, url, token, payload });
    if (res.statusCode >= 300) throw new Error(`${method} ${url}: ${res.statusCode} ${res.body}`);
    return res.json();
  }

  const search = (query: Record<string, string | number>, token: string) =>
    ctx.request({
      method: 'GET',
      url: `/api/v1/search?${new URLSearchParams(Object.entries(query).map(([k, v]): [string, string] => [k, String(v)]))}`,
      token,
    });

  /** The hits of one page, which must be answered 200. */
  async function hitsOf(query: Record<string, string | number>, token: string): Promise<Hit[]> {
    const res = await search(query, token);
    if (res.statusCode !== 200) throw new Error(`search: ${res.statusCode} ${res.body}`);
    return res.json().items;
  }

  /** A message whose voice note was transcribed as `transcript` (the state transcription leaves it in). */
  async function transcribedMessage(threadId: string, user: TestUser, transcript: string) {
    const message = await chat.post(threadId, user, 'voice note');
    await ctx.database.db
      .update(chatMessages)
      .set({ transcript, transcriptStatus: 'done' })
      .where(eq(chatMessages.id, message.id));
    return message;
  }

  /** One item of every kind holding `word` in `team` (by its owner); answers their ids by kind. */
  async function everyKind(team: TestTeam, word: string) {
    const t = team.owner.token;
    const track = await ctx.newTrack(team, { title: `${word} anthem` });
    const album = await albumHelpers(ctx).newAlbum(team, { title: `${word} collection` });
    const base = `/api/v1/tracks/${track.id}/versions/${track.versionId}`;
    const comment = await write('POST', `${base}/comments`, t, { comment: `more ${word} please` });
    const todo = await write('POST', `${base}/todos`, t, { todo: `record the ${word} part` });
    const thread = await chat.newThread(team, { name: 'Studio talk' });
    const message = await chat.post(thread.id, team.owner, `did you hear the ${word} take?`);
    const transcript = await transcribedMessage(thread.id, team.owner, `call about the ${word} mix`);
    const contact = await contactHelpers(ctx).newContact(team, { name: `${word} Booking` });
    const session = await sessionHelpers(ctx).newSession(team, { title: `${word} overdubs` });
    const interview = await interviewHelpers(ctx).newInterview(team, { title: `${word} story` });
    return {
      track: track.id,
      album: album.id,
      comment: comment.id,
      todo: todo.id,
      message: message.id,
      transcript: transcript.id,
      contact: contact.id,
      session: session.id,
      interview: interview.id,
      trackId: track.id,
      versionId: track.versionId,
      threadId: thread.id as string,
    };
  }

  return { ...chat, write, search, hitsOf, transcribedMessage, everyKind };
}
