import { type Static, type TProperties, Type } from '@sinclair/typebox';
import { PageQuery, Timestamp, Uuid } from '../../../shared/schemas.ts';
import { Entry, EXAMPLE_ENTRY } from '../../financials/financials.schemas.ts';
import { Session } from '../../sessions/sessions.schemas.ts';
import { LeadStatus, Nullable } from '../contacts.schemas.ts';

const item = <K extends string, P extends TProperties>(kind: K, description: string, properties: P) =>
  Type.Object(
    {
      kind: Type.Literal(kind),
      at: Timestamp,
      by: Nullable({ ...Uuid, description: 'Who did it; null for an API key or a deleted account' }),
      ...properties,
    },
    { description },
  );

export const TimelineItem = Type.Union(
  [
    item('created', 'The contact was created', { name: Type.String() }),
    item('updated', 'Fields of the contact changed', {
      fields: Type.Array(Type.String(), { description: 'The changed fields' }),
    }),
    item('lead_status_changed', 'The lead status moved (from null: the status it was created with)', {
      from: Nullable(LeadStatus),
      to: LeadStatus,
    }),
    item('notes_changed', 'The notes were changed (null: cleared)', { notes: Nullable(Type.String()) }),
    item('financial_entry', 'A financial entry naming the contact was recorded (at: when it was recorded)', {
      entry: Entry,
    }),
    item(
      'session',
      'A studio session of the team the contact takes part in, by their linked user or their e-mail ' +
        '(at: when it starts; by: who created it)',
      {
        session: Type.Pick(Session, ['id', 'title', 'startsAt', 'endsAt', 'status'], {
          title: 'ContactTimelineSession',
          description: 'The session, in short',
          examples: [
            {
              id: 311,
              title: 'Vocal tracking',
              startsAt: '2026-04-02T10:00:00.000Z',
              endsAt: '2026-04-02T14:00:00.000Z',
              status: 'scheduled',
            },
          ],
        }),
      },
    ),
  ],
  {
    title: 'ContactTimelineItem',
    description: 'One thing that happened with a contact: `kind` says which, and which fields it adds',
    examples: [
      {
        kind: 'lead_status_changed',
        at: '2026-03-14T09:30:00.000Z',
        by: '0193a5f2-6c1e-7b3a-9f10-3c2d4e5f6a7b',
        from: 'qualified',
        to: 'negotiating',
      },
    ],
  },
);
export type TimelineItem = Static<typeof TimelineItem>;

export const TimelineQuery = Type.Object({ ...PageQuery });

export const TimelinePage = Type.Object(
  {
    items: Type.Array(TimelineItem),
    nextCursor: Type.Union([Type.String(), Type.Null()]),
  },
  {
    title: 'ContactTimelinePage',
    examples: [
      {
        items: [
          { kind: 'financial_entry', at: '2026-03-14T09:30:00.000Z', by: null, entry: EXAMPLE_ENTRY },
          {
            kind: 'lead_status_changed',
            at: '2026-03-14T09:30:00.000Z',
            by: '0193a5f2-6c1e-7b3a-9f10-3c2d4e5f6a7b',
            from: 'qualified',
            to: 'negotiating',
          },
          { kind: 'created', at: '2026-03-02T11:00:00.000Z', by: null, name: 'Maya Okafor' },
        ],
        nextCursor: null,
      },
    ],
  },
);
