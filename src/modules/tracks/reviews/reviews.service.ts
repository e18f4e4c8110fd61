import type { Db } from '../../../db/client.ts';
import type { ReviewDecision } from '../../../db/schema/index.ts';
import type { EventLog } from '../../../events/event-log.ts';
import type { Principal } from '../../../plugins/auth.ts';
import type { Clock } from '../../../shared/clock.ts';
import { errors } from '../../../shared/errors.ts';
import { sessionUserId } from '../../../shared/tenancy.ts';
import { teamEvent, teamEventRecorder } from '../team-event.ts';
import { requireVersionForChange } from '../track-access.ts';
import { lockTrackBoard } from '../track-board.ts';
import type { TRACK_EVENTS } from '../track-events.ts';
import { nonMembers } from '../track-teams.ts';
import type { VersionsService } from '../versions/versions.service.ts';
import { advanceOnApproval } from './auto-advance.ts';
import type { REVIEW_EVENTS } from './review-events.ts';
import * as repo from './reviews.repository.ts';

/**
 * Review requests on a version: one open review at a time; the requester may withdraw it; each reviewer
 * marks it listened and decides. Any "changes requested" closes it so; all approvals close it approved. An
 * approval that completes the requirement of the next status of the board, when that status advances on
 * approvals, moves the track there.
 */
export class ReviewsService {
  private readonly record;
  private readonly recordTrack;

  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly versions: VersionsService,
    private readonly events: EventLog,
  ) {
    this.record = teamEventRecorder<typeof REVIEW_EVENTS>(events, 'review', (p) => p.reviewId);
    this.recordTrack = teamEventRecorder<typeof TRACK_EVENTS>(events, 'track', (p) => p.trackId);
  }

  async request(principal: Principal, trackId: number, versionId: number, reviewerIds: string[]) {
    const userId = sessionUserId(principal);
    const { track } = await requireVersionForChange(this.db, principal, trackId, versionId, 'owner');
    const strangers = new Set(await nonMembers(this.db, track.teamId, reviewerIds));
    if (strangers.size > 0)
      throw errors.validation(
        reviewerIds.flatMap((id, i) =>
          strangers.has(id)
            ? [{ path: `/body/reviewerIds/${i}`, message: 'is not a member of the team that owns the track' }]
            : [],
        ),
      );
    const now = this.clock.now();
    const openAlready = () => errors.conflict('This version already has an open review; withdraw it first');
    return this.db.transaction(async (tx) => {
      if (await repo.lockOpenReview(tx, versionId)) throw openAlready();
      const reviewId = await repo.insertReview(tx, versionId, userId, reviewerIds, now);
      if (reviewId === undefined) throw openAlready();
      await this.record(tx, principal, 'review.requested', {
        reviewId,
        versionId,
        trackId,
        teamId: track.teamId,
        reviewerIds,
      });
      return this.versions.detailOf(tx, track.teamId, versionId, principal);
    });
  }

  async withdraw(principal: Principal, trackId: number, versionId: number) {
    const userId = sessionUserId(principal);
    const { track } = await requireVersionForChange(this.db, principal, trackId, versionId, 'owner');
    return this.db.transaction(async (tx) => {
      const review = await this.openReview(tx, versionId);
      if (review.requestedBy !== userId) throw errors.forbidden('Only the requester can withdraw a review');
      await repo.setReviewStatus(tx, review.id, 'withdrawn', this.clock.now());
      await this.record(tx, principal, 'review.withdrawn', {
        reviewId: review.id,
        versionId,
        trackId,
        teamId: track.teamId,
      });
      return this.versions.detailOf(tx, track.teamId, versionId, principal);
    });
  }

  async listened(principal: Principal, trackId: number, versionId: number) {
    const userId = sessionUserId(principal);
    const { track } = await requireVersionForChange(this.db, principal, trackId, versionId, 'owner');
    return this.db.transaction(async (tx) => {
      const review = await this.openReview(tx, versionId);
      const reviewer = await this.requireReviewer(tx, review.id, userId);
      if (!reviewer.listenedAt) {
        await repo.updateReviewer(tx, review.id, userId, { listenedAt: this.clock.now() });
        await this.events.record(
          tx,
          teamEvent(
            principal,
            track.teamId,
            'review.listened',
            { type: 'review', id: review.id },
            {
              trackId,
              versionId,
            },
          ),
        );
      }
      return this.versions.detailOf(tx, track.teamId, versionId, principal);
    });
  }

  async decide(principal: Principal, trackId: number, versionId: number, decision: ReviewDecision) {
    const userId = sessionUserId(principal);
    const { track } = await requireVersionForChange(this.db, principal, trackId, versionId, 'owner');
    const now = this.clock.now();
    return this.db.transaction(async (tx) => {
      // The board first (as every status change takes it): a decision and a move into a status that asks for
      // approvals run one after the other, so a move never counts an approval withdrawn meanwhile.
      const board = await lockTrackBoard(tx, track.teamId);
      const review = await this.openReview(tx, versionId);
      await this.requireReviewer(tx, review.id, userId);
      await repo.updateReviewer(tx, review.id, userId, { decision, decidedAt: now });
      const decisions = await repo.decisionsOf(tx, review.id);
      const status = decisions.includes('changes_requested')
        ? 'changes_requested'
        : decisions.every((d) => d === 'approved')
          ? 'approved'
          : 'open';
      if (status !== 'open') await repo.setReviewStatus(tx, review.id, status, now);
      await this.record(tx, principal, 'review.decided', {
        reviewId: review.id,
        versionId,
        trackId,
        teamId: track.teamId,
        reviewerId: userId,
        decision,
        status,
      });
      if (decision === 'approved')
        await advanceOnApproval(tx, { principal, deciderId: userId, trackId, board, now }, (db, p, payload) =>
          this.recordTrack(db, p, 'track.status_changed', payload),
        );
      return this.versions.detailOf(tx, track.teamId, versionId, principal);
    });
  }

  private async openReview(tx: Db, versionId: number) {
    const review = await repo.lockOpenReview(tx, versionId);
    if (!review) throw errors.conflict('This version has no open review');
    return review;
  }

  private async requireReviewer(tx: Db, reviewId: number, userId: string) {
    const reviewer = await repo.findReviewer(tx, reviewId, userId);
    if (!reviewer) throw errors.forbidden('Only a reviewer of this review can do this');
    return reviewer;
  }
}
