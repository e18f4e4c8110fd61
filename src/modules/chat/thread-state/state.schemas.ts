import { Type } from '@sinclair/typebox';
import { Page, PageQuery, Timestamp, Uuid } from '../../../shared/schemas.ts';
import { CHAT_EXAMPLE } from '../chat.schemas.ts';

/** How long one `typing: true` lasts unless renewed. */
export const TYPING_SECONDS = 6;

export const TypingBody = Type.Object(
  {
    typing: Type.Boolean({
      description: `true marks the caller as typing for ${TYPING_SECONDS} s; false clears it`,
    }),
  },
  { title: 'ChatTypingSet', examples: [{ typing: true }] },
);
const TYPIST_EXAMPLE = { userId: CHAT_EXAMPLE.memberId, expiresAt: '2026-03-14T09:41:18.000Z' };
export const Typist = Type.Object(
  {
    userId: Uuid,
    expiresAt: { ...Timestamp, description: 'When the mark runs out unless renewed' },
  },
  { title: 'ChatTypist', examples: [TYPIST_EXAMPLE] },
);
export const TypingList = Type.Object(
  {
    items: Type.Array(Typist),
    nextCursor: Type.Union([Type.String(), Type.Null()], {
      description: 'Cursor of the next page (pass it as `cursor`), null on the last page',
    }),
  },
  { title: 'ChatTypingList', examples: [{ items: [TYPIST_EXAMPLE], nextCursor: null }] },
);
export const TypingQuery = Type.Object(PageQuery);

export const ReadBody = Type.Object(
  { lastReadMessageId: Uuid },
  { title: 'ChatThreadRead', examples: [{ lastReadMessageId: CHAT_EXAMPLE.messageId }] },
);
export const Receipt = Type.Object(
  {
    userId: Uuid,
    lastReadMessageId: Type.Union([Uuid, Type.Null()]),
    readAt: Type.Union([Timestamp, Type.Null()]),
  },
  {
    title: 'ChatReadReceipt',
    description: "A person's read marker in a thread",
    examples: [
      {
        userId: CHAT_EXAMPLE.memberId,
        lastReadMessageId: CHAT_EXAMPLE.messageId,
        readAt: '2026-03-14T09:45:00.000Z',
      },
    ],
  },
);
export const ReceiptPage = Page(Receipt);
export const ReceiptQuery = Type.Object(PageQuery);

export const PinBody = Type.Object(
  { pinned: Type.Boolean({ description: 'true pins the thread for the caller; false unpins it' }) },
  { title: 'ChatThreadPin', examples: [{ pinned: true }] },
);
