import { Type } from '@sinclair/typebox';
import { Page, PageQuery, Timestamp, Uuid } from '../../../shared/schemas.ts';

/** How long one `typing: true` lasts unless renewed. */
export const TYPING_SECONDS = 6;

export const TypingBody = Type.Object({
  typing: Type.Boolean({
    description: `true marks the caller as typing for ${TYPING_SECONDS} s; false clears it`,
  }),
});
export const Typist = Type.Object({ userId: Uuid, expiresAt: Timestamp });
export const TypingList = Type.Object({
  items: Type.Array(Typist),
  nextCursor: Type.Union([Type.String(), Type.Null()]),
});
export const TypingQuery = Type.Object(PageQuery);

export const ReadBody = Type.Object({ lastReadMessageId: Uuid });
export const Receipt = Type.Object({
  userId: Uuid,
  lastReadMessageId: Type.Union([Uuid, Type.Null()]),
  readAt: Type.Union([Timestamp, Type.Null()]),
});
export const ReceiptPage = Page(Receipt);
export const ReceiptQuery = Type.Object(PageQuery);

export const PinBody = Type.Object({ pinned: Type.Boolean() });
