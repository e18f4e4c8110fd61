import { type TSchema, Type } from '@sinclair/typebox';
import { LEAD_STATUSES } from '../../db/schema/index.ts';
import { withOlderNames } from '../../shared/older-names.ts';
import { CountedPage, CountQuery, Id, PageQuery, Timestamp, Uuid } from '../../shared/schemas.ts';
import { StringEnum } from '../../shared/string-enum.ts';

export const Nullable = <T extends TSchema>(t: T) => Type.Union([t, Type.Null()]);

export const MAX_NETWORKS = 20;
export const MAX_TAGS = 50;
export const MAX_GROUPS_PER_CONTACT = 100;

export const LeadStatus = StringEnum(LEAD_STATUSES, { description: 'Where the contact stands as a lead' });

export const Email = Type.String({ format: 'email', maxLength: 320 });
export const Network = Type.String({
  minLength: 1,
  maxLength: 40,
  pattern: '^[A-Za-z0-9][A-Za-z0-9._-]*$',
  description: 'A network name such as instagram or tiktok; stored in lower case',
});
export const Handle = Type.String({
  minLength: 1,
  maxLength: 200,
  description: 'The handle on that network, stored as given; matched case-insensitively without a leading @',
});
export const Phone = Type.String({
  minLength: 1,
  maxLength: 64,
  description:
    'A phone number in international format (+49 30 123456), or a national one with phoneCountry; stored as E.164',
});
export const PhoneCountry = Type.String({
  minLength: 2,
  maxLength: 2,
  pattern: '^[A-Za-z]{2}$',
  description: 'ISO 3166 country (DE, US, ...) that a phone number without a + is dialled in; not stored',
});
const Name = Type.String({
  minLength: 1,
  maxLength: 200,
  pattern: '\\S',
  description: 'Stored without surrounding spaces',
});
const ShortText = Type.String({ maxLength: 200 });
const Notes = Type.String({ maxLength: 10_000 });
const Tag = Type.String({ minLength: 1, maxLength: 50 });

const NetworkHandle = Type.Object({ network: Network, handle: Handle });
const Networks = Type.Array(NetworkHandle, {
  maxItems: MAX_NETWORKS,
  description: 'Handles per network; a handle belongs to at most one contact of a team',
});
const Tags = Type.Array(Tag, { maxItems: MAX_TAGS, uniqueItems: true });
const GroupIds = Type.Array(Id, {
  maxItems: MAX_GROUPS_PER_CONTACT,
  uniqueItems: true,
  description: 'Groups of the same team',
});
const UserLink = Nullable({
  ...Uuid,
  description:
    'The platform user this contact is: someone who shares a team with the caller (for an API key: with its ' +
    'team) or who lets others find them (preference discoverable)',
});

/** The contact the examples of the area show (team 7). */
export const EXAMPLE_CONTACT = {
  id: 12,
  teamId: 7,
  name: 'Maya Okafor',
  email: 'maya@okafor.example',
  phone: '+4930123456',
  company: 'Okafor Sync',
  role: 'Music supervisor',
  networks: [{ network: 'instagram', handle: 'mayaokafor' }],
  tags: ['sync', 'berlin'],
  groupIds: [3],
  leadStatus: 'negotiating',
  notes: 'Looking for moody synth tracks for a trailer.',
  userId: null,
  createdAt: '2026-03-02T11:00:00.000Z',
  updatedAt: '2026-03-14T09:30:00.000Z',
};

/** A contact as every answer shows it. */
export const Contact = Type.Object(
  {
    id: Id,
    teamId: Id,
    name: Type.String(),
    email: Nullable(Type.String({ description: 'Lower case; unique in the team' })),
    phone: Nullable(Type.String({ description: 'E.164 (+4930123456)' })),
    company: Nullable(Type.String()),
    role: Nullable(Type.String()),
    networks: Type.Array(
      Type.Object({
        network: Type.String({ description: 'Lower case (instagram, tiktok, ...)' }),
        handle: Type.String({ description: 'As given' }),
      }),
    ),
    tags: Type.Array(Type.String()),
    groupIds: Type.Array(Id, { description: 'Ascending' }),
    leadStatus: LeadStatus,
    notes: Nullable(Type.String()),
    userId: Nullable({ ...Uuid, description: 'The platform user this contact is, if linked' }),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  },
  { title: 'Contact', description: 'A person or company the team works with', examples: [EXAMPLE_CONTACT] },
);

/** The writable fields, as create and patch take them. */
const fields = {
  name: Name,
  email: Nullable({ ...Email, description: 'Unique in the team, case-insensitively; stored in lower case' }),
  phone: Nullable(Phone),
  phoneCountry: PhoneCountry,
  company: Nullable(ShortText),
  role: Nullable(ShortText),
  networks: Networks,
  tags: Tags,
  groupIds: GroupIds,
  leadStatus: LeadStatus,
  notes: Nullable(Notes),
  userId: UserLink,
};

export const CreateContactBody = withOlderNames(
  Type.Object(
    {
      teamId: Id,
      name: fields.name,
      ...Type.Partial(
        Type.Object({
          email: fields.email,
          phone: fields.phone,
          phoneCountry: fields.phoneCountry,
          company: fields.company,
          role: fields.role,
          networks: fields.networks,
          tags: fields.tags,
          groupIds: fields.groupIds,
          leadStatus: fields.leadStatus,
          notes: fields.notes,
          userId: fields.userId,
        }),
      ).properties,
    },
    {
      title: 'ContactCreate',
      description:
        'leadStatus defaults to new; lists to empty; the other fields to null. phoneCountry is read only with ' +
        'phone (alone it is 400).',
      examples: [
        {
          teamId: 7,
          name: 'Maya Okafor',
          email: 'maya@okafor.example',
          phone: '030 123456',
          phoneCountry: 'DE',
          company: 'Okafor Sync',
          role: 'Music supervisor',
          networks: [{ network: 'instagram', handle: '@mayaokafor' }],
          tags: ['sync', 'berlin'],
          groupIds: [3],
        },
      ],
    },
  ),
  { team_id: 'teamId' },
);

export const ContactPatchBody = Type.Partial(Type.Object(fields), {
  minProperties: 1,
  title: 'ContactUpdate',
  description:
    'Only the fields given change (at least one); null clears email, phone, company, role, notes or userId; ' +
    'networks, tags and groupIds replace the whole list; phoneCountry is read only with phone',
  examples: [{ leadStatus: 'won', notes: 'Signed the sync deal for Night Drive.' }],
});

export const ListQuery = Type.Object({
  teamId: Id,
  q: Type.Optional(
    Type.String({ minLength: 1, maxLength: 100, description: 'Case-insensitive prefix of the name' }),
  ),
  groupId: Type.Optional({ ...Id, description: 'Only members of this group' }),
  tag: Type.Optional({ ...Tag, description: 'Only contacts with this tag (exact)' }),
  leadStatus: Type.Optional(LeadStatus),
  ...PageQuery,
  ...CountQuery,
});

export const ContactPage = CountedPage(Contact);

export const ResolveQuery = Type.Object({
  teamId: Id,
  network: Type.Optional(Network),
  handle: Type.Optional(Handle),
  email: Type.Optional(Email),
  phone: Type.Optional(Phone),
  phoneCountry: Type.Optional(PhoneCountry),
});

export const LeadStatusQuery = Type.Object({ teamId: Id, contactId: Id });

export const LeadStatusHistory = Type.Object(
  {
    contactId: Id,
    leadStatus: LeadStatus,
    history: Type.Array(
      Type.Object({
        from: Nullable({ ...LeadStatus, description: 'null: the status the contact was created with' }),
        to: LeadStatus,
        changedAt: Timestamp,
        changedBy: Nullable({ ...Uuid, description: 'The user; null when an API key made the change' }),
      }),
      { description: 'Oldest first: the status at creation, then every change (the last 500)' },
    ),
  },
  {
    title: 'ContactLeadStatusHistory',
    description: "A contact's lead status and how it got there",
    examples: [
      {
        contactId: 12,
        leadStatus: 'negotiating',
        history: [
          {
            from: null,
            to: 'new',
            changedAt: '2026-03-02T11:00:00.000Z',
            changedBy: '0193a5f2-6c1e-7b3a-9f10-3c2d4e5f6a7b',
          },
          { from: 'new', to: 'negotiating', changedAt: '2026-03-14T09:30:00.000Z', changedBy: null },
        ],
      },
    ],
  },
);
