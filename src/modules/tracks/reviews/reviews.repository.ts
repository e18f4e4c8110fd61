import { and, asc, desc, eq } from 'drizzle-orm';
import type { Db } from '../../../db/client.ts';
import {
  type ReviewDecision,
  type ReviewStatus,
  reviewReviewers,
  versionReviews,
} from '../../../db/schema/index.ts';

/** The version's latest review request with its reviewers, or undefined. */
export async function latestReview(db: Db, versionId: number) {
  const [review] = await db
    .select()
    .from(versionReviews)
    .where(eq(versionReviews.versionId, versionId))
    .orderBy(desc(versionReviews.id))
    .limit(1);
  if (!review) return undefined;
  const reviewers = await db
    .select({
      userId: reviewReviewers.userId,
      listenedAt: reviewReviewers.listenedAt,
      decision: reviewReviewers.decision,
      decidedAt: reviewReviewers.decidedAt,
    })
    .from(reviewReviewers)
    .where(eq(reviewReviewers.reviewId, review.id))
    .orderBy(asc(reviewReviewers.userId));
  return {
    id: review.id,
    status: review.status,
    requestedBy: review.requestedBy,
    reviewers,
    createdAt: review.createdAt,
    closedAt: review.closedAt,
  };
}

/** The version's open (pending) review, locked for a change. */
export async function lockOpenReview(db: Db, versionId: number) {
  const [row] = await db
    .select()
    .from(versionReviews)
    .where(and(eq(versionReviews.versionId, versionId), eq(versionReviews.status, 'pending')))
    .for('update');
  return row;
}

/**
 * Opens a review with its reviewers; undefined when the version has an open review already. The one-open
 * unique index decides between concurrent requests (the lock above finds no row to wait on before the first
 * commits), so the losers get no row instead of an error.
 */
export async function insertReview(
  db: Db,
  versionId: number,
  requestedBy: string,
  reviewerIds: string[],
  now: Date,
): Promise<number | undefined> {
  const [review] = await db
    .insert(versionReviews)
    .values({ versionId, requestedBy, createdAt: now, updatedAt: now })
    .onConflictDoNothing()
    .returning({ id: versionReviews.id });
  if (!review) return undefined;
  await db.insert(reviewReviewers).values(reviewerIds.map((userId) => ({ reviewId: review.id, userId })));
  return review.id;
}

export async function findReviewer(db: Db, reviewId: number, userId: string) {
  const [row] = await db
    .select()
    .from(reviewReviewers)
    .where(and(eq(reviewReviewers.reviewId, reviewId), eq(reviewReviewers.userId, userId)));
  return row;
}

export async function updateReviewer(
  db: Db,
  reviewId: number,
  userId: string,
  fields: { listenedAt?: Date; decision?: ReviewDecision; decidedAt?: Date },
) {
  await db
    .update(reviewReviewers)
    .set(fields)
    .where(and(eq(reviewReviewers.reviewId, reviewId), eq(reviewReviewers.userId, userId)));
}

export async function decisionsOf(db: Db, reviewId: number) {
  const rows = await db
    .select({ decision: reviewReviewers.decision })
    .from(reviewReviewers)
    .where(eq(reviewReviewers.reviewId, reviewId));
  return rows.map((r) => r.decision);
}

export async function setReviewStatus(db: Db, reviewId: number, status: ReviewStatus, now: Date) {
  await db
    .update(versionReviews)
    .set({ status, updatedAt: now, closedAt: status === 'pending' ? null : now })
    .where(eq(versionReviews.id, reviewId));
}
