import { and, eq, inArray, isNull, lte, or, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { idempotencyKeys } from '../../db/schema/index.ts';

export type IdempotencyRow = typeof idempotencyKeys.$inferSelect;
export type KeyOf = { principal: string; key: string };
/** An answer as it is stored and replayed. */
export type StoredAnswer = { status: number; headers: Record<string, string>; body: string };

const byKey = ({ principal, key }: KeyOf) =>
  and(eq(idempotencyKeys.principal, principal), eq(idempotencyKeys.key, key));

/** A claim still running under the lease that ends at `lockedUntil` (the claim's fencing token). */
const heldUntil = (id: KeyOf, lockedUntil: Date) =>
  and(byKey(id), isNull(idempotencyKeys.responseStatus), eq(idempotencyKeys.lockedUntil, lockedUntil));

/** Inserts a running row for a key nobody holds; false when the principal already has a row for it. */
export async function insertClaim(
  db: Db,
  id: KeyOf,
  claim: { requestHash: string; now: Date; lockedUntil: Date; expiresAt: Date },
): Promise<boolean> {
  const rows = await db
    .insert(idempotencyKeys)
    .values({
      ...id,
      requestHash: claim.requestHash,
      lockedUntil: claim.lockedUntil,
      createdAt: claim.now,
      expiresAt: claim.expiresAt,
    })
    .onConflictDoNothing()
    .returning({ key: idempotencyKeys.key });
  return rows.length > 0;
}

export async function findKey(db: Db, id: KeyOf): Promise<IdempotencyRow | undefined> {
  const [row] = await db.select().from(idempotencyKeys).where(byKey(id));
  return row;
}

/**
 * Makes an expired row a fresh claim for a new request. Of several requests trying at once, one wins: the
 * others' updates wait for it and then no longer match.
 */
export async function claimExpired(
  db: Db,
  id: KeyOf,
  claim: { requestHash: string; now: Date; lockedUntil: Date; expiresAt: Date },
): Promise<boolean> {
  const rows = await db
    .update(idempotencyKeys)
    .set({
      requestHash: claim.requestHash,
      responseStatus: null,
      responseHeaders: null,
      responseBody: null,
      lockedUntil: claim.lockedUntil,
      createdAt: claim.now,
      expiresAt: claim.expiresAt,
    })
    .where(and(byKey(id), lte(idempotencyKeys.expiresAt, claim.now)))
    .returning({ key: idempotencyKeys.key });
  return rows.length > 0;
}

/** Takes over a running row whose lease has passed (its process died); one of several contenders wins. */
export async function claimAbandoned(
  db: Db,
  id: KeyOf,
  claim: { requestHash: string; now: Date; lockedUntil: Date },
): Promise<boolean> {
  const rows = await db
    .update(idempotencyKeys)
    .set({ lockedUntil: claim.lockedUntil })
    .where(
      and(
        byKey(id),
        eq(idempotencyKeys.requestHash, claim.requestHash),
        isNull(idempotencyKeys.responseStatus),
        or(isNull(idempotencyKeys.lockedUntil), lte(idempotencyKeys.lockedUntil, claim.now)),
      ),
    )
    .returning({ key: idempotencyKeys.key });
  return rows.length > 0;
}

/** Extends a running claim's lease; false when the claim was lost (taken over after its lease passed). */
export async function renewClaim(db: Db, id: KeyOf, lockedUntil: Date, next: Date): Promise<boolean> {
  const rows = await db
    .update(idempotencyKeys)
    .set({ lockedUntil: next })
    .where(heldUntil(id, lockedUntil))
    .returning({ key: idempotencyKeys.key });
  return rows.length > 0;
}

/** Stores the answer of a running claim; false when the claim was lost meanwhile. */
export async function storeAnswer(
  db: Db,
  id: KeyOf,
  lockedUntil: Date,
  answer: StoredAnswer,
): Promise<boolean> {
  const rows = await db
    .update(idempotencyKeys)
    .set({
      responseStatus: answer.status,
      responseHeaders: answer.headers,
      responseBody: answer.body,
      lockedUntil: null,
    })
    .where(heldUntil(id, lockedUntil))
    .returning({ key: idempotencyKeys.key });
  return rows.length > 0;
}

/** Drops a running claim without an answer, so the next request with the key runs. */
export async function releaseClaim(db: Db, id: KeyOf, lockedUntil: Date): Promise<void> {
  await db.delete(idempotencyKeys).where(heldUntil(id, lockedUntil));
}

/** Deletes up to `limit` rows expired at `now`; answers how many went. */
export async function deleteExpiredKeys(db: Db, now: Date, limit: number): Promise<number> {
  const due = db
    .select({ principal: idempotencyKeys.principal, key: idempotencyKeys.key })
    .from(idempotencyKeys)
    .where(lte(idempotencyKeys.expiresAt, now))
    .limit(limit);
  const rows = await db
    .delete(idempotencyKeys)
    .where(inArray(sql`(${idempotencyKeys.principal}, ${idempotencyKeys.key})`, due))
    .returning({ key: idempotencyKeys.key });
  return rows.length;
}
