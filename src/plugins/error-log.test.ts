import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { useTestContext } from '../../test/helpers/context.ts';
import { PathTokens } from './path-tokens.ts';
import { loggerOptions } from './request-log.ts';

const ctx = useTestContext();

/** Logs `err` through the service's logger options and answers the line written. */
async function logged(err: unknown): Promise<string> {
  const lines: string[] = [];
  const app = Fastify({
    logger: {
      ...loggerOptions('info', new PathTokens()),
      stream: { write: (line: string) => lines.push(line) },
    },
  });
  app.log.error({ err }, 'request failed');
  await app.close();
  expect(lines).toHaveLength(1);
  return lines[0]!;
}

/** The error a query fails with. */
const failure = (query: Promise<unknown>) =>
  query.then(
    () => expect.unreachable('the query should fail'),
    (error: unknown) => error,
  );

describe('error logs', () => {
  it('never write the values bound to a failed query, even where the database quotes them', async () => {
    const secret = `invite-token-${randomUUID()}`;
    const email = `someone-${randomUUID()}@example.test`;
    const error = await failure(ctx.database.db.execute(sql`select ${email}::text, ${secret}::int`));
    // The driver and Drizzle carry them in fields and messages: what a plain serializer would write.
    expect(JSON.stringify(error, Object.getOwnPropertyNames(error))).toContain(secret);

    const line = await logged(error);
    expect(line).not.toContain(secret);
    expect(line).not.toContain(email);
    const { err } = JSON.parse(line);
    expect(err.message).toContain('Failed query: select $1::text, $2::int');
    expect(err.stack).toContain('Failed query: select $1::text, $2::int');
    expect(err.stack).toMatch(/\n\s+at /);
    expect(err.cause.code).toBe('22P02');
    expect(err.cause.message).toBe('invalid input syntax for type integer: "[redacted]"');
    expect(err.params).toBeUndefined();
    expect(err.cause.params).toBeUndefined();
    expect(err.cause.parameters).toBeUndefined();
  });

  it('write other errors whole: type, message, code, stack and their causes', async () => {
    const cause = Object.assign(new Error('disk full'), { code: 'ENOSPC' });
    const line = await logged(new Error('could not store the upload', { cause }));
    const { err } = JSON.parse(line);
    expect(err).toMatchObject({
      type: 'Error',
      message: 'could not store the upload',
      cause: { type: 'Error', message: 'disk full', code: 'ENOSPC' },
    });
    expect(err.stack).toContain('could not store the upload');
  });
});
