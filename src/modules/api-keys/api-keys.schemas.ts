import { Type } from '@sinclair/typebox';
import { SCOPES } from '../../plugins/auth.ts';
import { Id, Page, PageQuery, Timestamp, TimestampInput, Uuid } from '../../shared/schemas.ts';

export const ScopeSchema = Type.Union(
  SCOPES.map((s) => Type.Literal(s)),
  { description: 'Write scope; reads never need one' },
);

const API_KEY_EXAMPLE = {
  id: 4,
  teamId: 7,
  name: 'Release pipeline',
  prefix: 'tmw_live_EXAM',
  scopes: ['tracks:write', 'albums:write'],
  expiresAt: '2027-01-01T00:00:00.000Z',
  lastUsedAt: '2026-03-20T07:45:00.000Z',
  createdBy: '0193a5f2-6c1e-7b3a-9f10-3c2d4e5f6a7b',
  createdAt: '2026-03-14T09:30:00.000Z',
};

export const ApiKey = Type.Object(
  {
    id: Id,
    teamId: Id,
    name: Type.String(),
    prefix: Type.String({ description: 'First characters of the key, to tell keys apart' }),
    scopes: Type.Array(Type.String(), { description: 'Write scopes the key holds; every key may read' }),
    expiresAt: Type.Union([Timestamp, Type.Null()], { description: 'null: the key does not expire' }),
    lastUsedAt: Type.Union([Timestamp, Type.Null()], { description: 'To the minute' }),
    createdBy: Type.Union([Uuid, Type.Null()], {
      description: 'The user who created the key; null when unknown (their account is gone)',
    }),
    createdAt: Timestamp,
  },
  { title: 'ApiKey', examples: [API_KEY_EXAMPLE] },
);

export const CreatedApiKey = Type.Composite(
  [ApiKey, Type.Object({ key: Type.String({ description: 'The raw key; shown only in this response' }) })],
  {
    title: 'CreatedApiKey',
    examples: [{ ...API_KEY_EXAMPLE, lastUsedAt: null, key: 'tmw_live_EXAMPLE-key-not-real-000000000000' }],
  },
);

export const CreateApiKeyBody = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 100 }),
    scopes: Type.Array(ScopeSchema, { maxItems: 16, description: 'May be empty: a read-only key' }),
    expiresAt: Type.Optional(TimestampInput),
  },
  {
    title: 'ApiKeyCreate',
    examples: [
      {
        name: 'Release pipeline',
        scopes: ['tracks:write', 'albums:write'],
        expiresAt: '2027-01-01T00:00:00Z',
      },
    ],
  },
);

export const TeamKeyParams = Type.Object({ id: Id, keyId: Id });
export const ApiKeysQuery = Type.Object(PageQuery);
export const ApiKeyPage = Page(ApiKey);
