import type { FastifyError, FastifyRequest } from 'fastify';
import { validationDetails } from '../../plugins/errors.ts';
import { errors } from '../../shared/errors.ts';
import { hasAtMostTwoDecimals, MAX_AMOUNT } from './amounts.ts';

type AjvError = { instancePath: string; keyword: string; message?: string; params: Record<string, unknown> };
type FailedValidation = FastifyError & { validation?: AjvError[]; validationContext?: string };

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Where a body holds amounts: `['/amount', value]` pairs, as JSON pointers into the body. */
export type AmountLocator = (body: Record<string, unknown>) => [string, unknown][];

export const amountOfBody: AmountLocator = (body) => [['/amount', body.amount]];

export const amountsOfEntries: AmountLocator = (body) =>
  Array.isArray(body.entries)
    ? body.entries.map((entry, i): [string, unknown] => [
        `/entries/${i}/amount`,
        isRecord(entry) ? entry.amount : undefined,
      ])
    : [];

// Out of range is the schema's to say; within it, only the decimals are left to check.
const hasTooManyDecimals = (value: number) => Math.abs(value) <= MAX_AMOUNT && !hasAtMostTwoDecimals(value);

/**
 * A `preHandler` for routes declared with `attachValidation`: answers 400 with every problem of the body at
 * once, the schema's own and amounts with more than two decimals (which no JSON Schema keyword checks
 * exactly), so an import names each bad row in one answer. Errors of the path or query pass through as they are.
 */
export function amountCheck(locate: AmountLocator) {
  return async (request: FastifyRequest): Promise<void> => {
    const failed = request.validationError as FailedValidation | undefined;
    if (failed && failed.validationContext !== 'body') throw failed;
    const body = request.body;
    const decimals: AjvError[] = isRecord(body)
      ? locate(body)
          .filter(([, value]) => typeof value === 'number' && hasTooManyDecimals(value))
          .map(([instancePath]) => ({
            instancePath,
            keyword: 'decimals',
            message: 'must have at most two decimals',
            params: {},
          }))
      : [];
    const problems = [...(failed?.validation ?? []), ...decimals];
    if (failed && problems.length === 0) throw failed;
    if (problems.length > 0) throw errors.validation(validationDetails('body', problems));
  };
}
