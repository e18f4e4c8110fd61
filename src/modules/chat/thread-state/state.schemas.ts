import { Type } from '@sinclair/typebox';
import { Page, PageQuery, Timestamp, Uuid } from '../../../shared/schemas.ts';

/** How long one `typing: true` lasts unless renewed. */
export const TYPING_SECONDS = 6;

export const TypingBody = Type.Object(
  {
    typing: Type.Boolean({
      description: `true marks the caller as typing for ${TYPING_SECONDS} s; false clears it`,
    }),
  },
  { title: 'ChatTypingSet' },
);
export const Typist = Type.Object(
  {
    userId: Uuid,
    expiresAt: { ...Timestamp, description: 'When the mark runs out unless renewed' },
  },
  { title: 'ChatTypist' },
);
export const TypingList = Type.Object(
  {
    items: Type.Array(Typist),
    nextCursor: Type.Null({ description: 'Always null: everyone typing fits one answer' }),
  },
  { title: 'ChatTypingList' },
);

export const ReadBody = Type.Object({ lastReadMessageId: Uuid }, { title: 'ChatThreadRead' });
export const Receipt = Type.Object(
  {
    userId: Uuid,
    lastReadMessageId: Type.Union([Uuid, Type.Null()]),
    readAt: Type.Union([Timestamp, Type.Null()]),
  },
  {
    title: 'ChatReadReceipt',
    description: "A person's read marker in a thread",
  },
);
export const ReceiptPage = Page(Receipt);
export const ReceiptQuery = Type.Object(PageQuery);

export const PinBody = Type.Object(
  { pinned: Type.Boolean({ description: 'true pins the thread for the caller; false unpins it' }) },
  { title: 'ChatThreadPin' },
);
