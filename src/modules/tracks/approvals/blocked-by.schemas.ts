import { Type } from '@sinclair/typebox';

/** What keeps a board card from the next status, or null. */
export type BlockedBy = { status: string; required: number; have: number } | null;

export const BlockedBySchema = Type.Union(
  [
    Type.Object(
      {
        status: Type.String({ description: 'The next status of the board' }),
        required: Type.Integer({ description: 'Approvals each track needs to enter it' }),
        have: Type.Integer({ description: 'Approvals it has (an album: the fewest of its tracks)' }),
      },
      { title: 'BoardBlock', examples: [{ status: 'ready', required: 2, have: 1 }] },
    ),
    Type.Null(),
  ],
  {
    description:
      'What keeps the card from the next status of its board: the approvals that status asks and the card ' +
      'lacks; null when the next status asks none, they are met, or the card is in the last status',
  },
);
