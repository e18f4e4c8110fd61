import { isDeepStrictEqual } from 'node:util';
import { type Static, type TObject, type TSchema, type TUnsafe, Type } from '@sinclair/typebox';
import type { FastifyError, FastifyRequest } from 'fastify';
import { validationDetails } from '../plugins/errors.ts';
import { errors } from './errors.ts';

type AjvError = { instancePath: string; keyword: string; message?: string; params: Record<string, unknown> };
type FailedValidation = FastifyError & { validation?: AjvError[]; validationContext?: string };

/** `{older: preferred}`: the snake_case names a body field had in the specification, by their camelCase names. */
type OlderNames = Record<string, string>;

const OLDER_NAMES = Symbol('olderNames');

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * A body schema whose fields also go by the older snake_case names of the specification (`team_id` for
 * `teamId`): both names are documented, the older one `deprecated`, and a field required under its preferred
 * name is required under either. Handlers see the preferred names only: routes declaring such a body spread
 * `acceptOlderNames` into their options. Sending both names with different values is 400.
 */
export function withOlderNames<
  T extends TObject,
  const N extends Record<string, keyof T['properties'] & string>,
>(schema: T, olderNames: N): TUnsafe<Static<T>> {
  const properties: Record<string, TSchema> = { ...schema.properties };
  const required = new Set(schema.required ?? []);
  const eitherOf: unknown[] = [];
  for (const [older, preferred] of Object.entries(olderNames)) {
    const property = schema.properties[preferred];
    // A default would be filled in under the preferred name and then differ from the older name's value.
    if (!property || 'default' in property) throw new Error(`${preferred} cannot take an older name`);
    const { description: _, ...rest } = property;
    properties[older] = {
      ...rest,
      deprecated: true,
      description: `Same as ${preferred}; the camelCase name is preferred`,
    } as unknown as TSchema;
    if (required.delete(preferred))
      eitherOf.push({ anyOf: [{ required: [preferred] }, { required: [older] }] });
  }
  const { required: _, ...rest } = schema;
  const documented = {
    ...rest,
    properties,
    ...(required.size > 0 ? { required: [...required] } : {}),
    ...(eitherOf.length === 1 ? (eitherOf[0] as object) : eitherOf.length > 1 ? { allOf: eitherOf } : {}),
  };
  return Object.assign(Type.Unsafe<Static<T>>(documented), { [OLDER_NAMES]: olderNames });
}

const olderNamesOf = (schema: unknown): OlderNames | undefined =>
  (schema as { [OLDER_NAMES]?: OlderNames } | undefined)?.[OLDER_NAMES];

/**
 * Checks a body of `withOlderNames` beside the schema's own checks (every problem in one answer) and renames
 * its older names to the preferred ones. Run with `attachValidation`, so it sees the schema's verdict first.
 */
async function resolveOlderNames(request: FastifyRequest): Promise<void> {
  const failed = request.validationError as FailedValidation | undefined;
  if (failed && failed.validationContext !== 'body') throw failed;
  const olderNames = olderNamesOf(request.routeOptions.schema?.body);
  const body = request.body;
  if (!olderNames || !isRecord(body)) {
    if (failed) throw failed;
    return;
  }
  const preferredOf = new Map(Object.entries(olderNames).map(([older, preferred]) => [preferred, older]));
  const problems: AjvError[] = [];
  // A field required under either name missing under both: one problem, under its preferred name.
  const olderName = new Set(Object.keys(olderNames));
  for (const e of failed?.validation ?? []) {
    const either = e.instancePath === '' && e.keyword === 'anyOf';
    const older =
      e.instancePath === '' && e.keyword === 'required' && olderName.has(String(e.params.missingProperty));
    if (!either && !older) problems.push(e);
  }
  for (const [older, preferred] of Object.entries(olderNames)) {
    if (
      Object.hasOwn(body, older) &&
      Object.hasOwn(body, preferred) &&
      !isDeepStrictEqual(body[older], body[preferred])
    )
      problems.push({
        instancePath: `/${older}`,
        keyword: 'olderName',
        message: `is the older name of ${preferred} and differs from it: send one of them (${preferred} is preferred)`,
        params: {},
      });
  }
  if (problems.length > 0) {
    const details = validationDetails('body', problems).map((detail) => {
      const older = detail.message === 'is required' ? preferredOf.get(detail.path.slice(6)) : undefined;
      return older ? { ...detail, message: `is required (or its older name ${older})` } : detail;
    });
    throw errors.validation(details);
  }
  if (failed) throw failed;
  for (const [older, preferred] of Object.entries(olderNames)) {
    if (!Object.hasOwn(body, older)) continue;
    body[preferred] = body[older];
    delete body[older];
  }
}

/** Route options of a route whose body is declared `withOlderNames`. */
export const acceptOlderNames = { attachValidation: true, preHandler: resolveOlderNames } as const;
