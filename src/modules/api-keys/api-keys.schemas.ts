import { Type } from '@sinclair/typebox';
import { SCOPES } from '../../plugins/auth.ts';
import { Id, Page, PageQuery, Timestamp, TimestampInput, Uuid } from '../../shared/schemas.ts';

export const ScopeSchema = Type.Union(
  SCOPES.map((s) => Type.Literal(s)),
  { description: 'Write scope; reads never need one' },
);

export const ApiKey = Type.Object({
  id: Id,
  teamId: Id,
  name: Type.String(),
  prefix: Type.String({ description: 'First characters of the key, to tell keys apart' }),
  scopes: Type.Array(Type.String()),
  expiresAt: Type.Union([Timestamp, Type.Null()]),
  lastUsedAt: Type.Union([Timestamp, Type.Null()], { description: 'To the minute' }),
  createdBy: Type.Union([Uuid, Type.Null()], {
    description: 'The user who created the key; null when unknown (their account is gone)',
  }),
  createdAt: Timestamp,
});

export const CreatedApiKey = Type.Composite([
  ApiKey,
  Type.Object({ key: Type.String({ description: 'The raw key; shown only in this response' }) }),
]);

export const CreateApiKeyBody = Type.Object({
  name: Type.String({ minLength: 1, maxLength: 100 }),
  scopes: Type.Array(ScopeSchema, { maxItems: 16 }),
  expiresAt: Type.Optional(TimestampInput),
});

export const TeamKeyParams = Type.Object({ id: Id, keyId: Id });
export const ApiKeysQuery = Type.Object(PageQuery);
export const ApiKeyPage = Page(ApiKey);
