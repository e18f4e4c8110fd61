import { randomBytes } from 'node:crypto';
import type { Db } from '../../db/client.ts';
import { actorOf } from '../../events/actor.ts';
import type { EventLog } from '../../events/event-log.ts';
import type { Principal } from '../../plugins/auth.ts';
import type { Clock } from '../../shared/clock.ts';
import { errors } from '../../shared/errors.ts';
import { storedFileView, ticketView } from '../files/file-view.ts';
import type { FileRow } from '../files/files.repository.ts';
import type { FilesService } from '../files/files.service.ts';
import { coverContentType } from '../files/media-type.ts';
import { ownedBy, registerOwnedUpload, removeOwnedUpload } from '../files/owned-uploads.ts';
import { requireTour } from './tour-access.ts';
import * as repo from './tour-covers.repository.ts';
import { tourEvent } from './tour-events.ts';
import { publicCoverUrl } from './tour-view.ts';
import { touchTour } from './tours.repository.ts';

type Page = { limit: number; cursor?: string | undefined };

/** 256 random bits: the unguessable part of a public cover URL. */
const newToken = () => randomBytes(32).toString('base64url');

/**
 * Covers of a tour, like track covers: images uploaded in two steps (URL, PUT, `added`), one of them current
 * (the first one registered, while the tour has none). A cover may also be made public: it is then served to
 * anyone, without a token, at a URL carrying a random token of its own, until it is made private or deleted.
 */
export class TourCoversService {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly files: FilesService,
    private readonly baseUrl: string,
    private readonly events: EventLog,
  ) {}

  private async view(file: FileRow, currentId: number | null, token: string | undefined) {
    return {
      ...(await storedFileView(this.files, file, false)),
      tourId: Number(file.ownerId),
      isCurrent: file.id === currentId,
      isPublic: token !== undefined,
      publicUrl: token === undefined ? null : publicCoverUrl(this.baseUrl, token),
    };
  }

  /** Registered covers, newest first. */
  async list(principal: Principal, tourId: number, page: Page) {
    const tour = await requireTour(this.db, principal, tourId);
    const tokens = await repo.publicTokensOf(this.db, tourId);
    return this.files.pageOfOwner(tour.teamId, repo.tourCoverOwner(tourId), page, (file) =>
      this.view(file, tour.coverFileId, tokens.get(file.id)),
    );
  }

  /** A pending cover and the URL to PUT its image to. */
  async create(
    principal: Principal,
    tourId: number,
    input: { fileName: string; fileSize?: number | undefined; mediaType?: string | undefined },
  ) {
    const tour = await requireTour(this.db, principal, tourId);
    const ticket = await this.files.createUploadUrl({
      teamId: tour.teamId,
      kind: 'image',
      fileName: input.fileName.trim(),
      contentType: coverContentType(input.mediaType),
      size: input.fileSize,
      owner: repo.tourCoverOwner(tourId),
      createdBy: actorOf(principal).actorUserId,
    });
    return { ...ticketView(ticket), tourId, isCurrent: false, isPublic: false, publicUrl: null };
  }

  /** Registers the uploaded image; calling it again once registered answers the cover. */
  async added(principal: Principal, tourId: number, coverId: number) {
    const tour = await requireTour(this.db, principal, tourId);
    const file = await registerOwnedUpload(this.files, {
      teamId: tour.teamId,
      owner: repo.tourCoverOwner(tourId),
      fileId: coverId,
      kind: 'image',
      createdBy: actorOf(principal).actorUserId,
      also: async (tx, registered) => {
        const current = await repo.setCoverIfNone(tx, tourId, registered.id, this.clock.now());
        await this.events.record(
          tx,
          tourEvent(principal, tour.teamId, 'tour.cover_added', tourId, {
            coverId: registered.id,
            current,
          }),
        );
      },
    });
    if (!file) throw errors.notFound('cover');
    const tokens = await repo.publicTokensOf(this.db, tourId);
    return this.view(file, await repo.currentCoverId(this.db, tourId), tokens.get(file.id));
  }

  /**
   * Runs `change` on a registered cover of the tour, locked, in one transaction with its event; a cover
   * still waiting for its image is 409, anything else 404.
   */
  private async onCover<T>(
    principal: Principal,
    tourId: number,
    coverId: number,
    change: (tx: Db, teamId: number, file: FileRow) => Promise<T>,
  ): Promise<T> {
    const tour = await requireTour(this.db, principal, tourId);
    const done = await this.db.transaction(async (tx) => {
      const file = await repo.lockCoverFile(tx, tour.teamId, tourId, coverId);
      return file ? { value: await change(tx, tour.teamId, file) } : undefined;
    });
    if (done) return done.value;
    const pending = await this.files.getPending(tour.teamId, coverId);
    if (ownedBy(pending, repo.tourCoverOwner(tourId)))
      throw errors.conflict(
        'This cover is not uploaded yet: PUT its image, then confirm it with POST .../covers/{coverId}/added',
      );
    throw errors.notFound('cover');
  }

  /** Makes a registered cover the one the tour shows. */
  async setCurrent(principal: Principal, tourId: number, coverId: number) {
    return this.onCover(principal, tourId, coverId, async (tx, teamId, file) => {
      await repo.setCurrentCover(tx, tourId, coverId, this.clock.now());
      await this.events.record(tx, tourEvent(principal, teamId, 'tour.cover_set', tourId, { coverId }));
      const tokens = await repo.publicTokensOf(tx, tourId);
      return this.view(file, coverId, tokens.get(coverId));
    });
  }

  /**
   * Makes a cover public (a new random token, kept while it stays public) or private (the token is dropped,
   * and its URL answers 404 from then on; making it public again gives a new URL).
   */
  async setPublic(principal: Principal, tourId: number, coverId: number, isPublic: boolean) {
    return this.onCover(principal, tourId, coverId, async (tx, teamId, file) => {
      let token: string | undefined;
      let changed: boolean;
      if (isPublic) {
        ({ token, changed } = await repo.publishCover(tx, {
          fileId: coverId,
          tourId,
          token: newToken(),
          now: this.clock.now(),
        }));
      } else {
        changed = await repo.unpublishCover(tx, coverId);
      }
      if (changed) {
        const action = isPublic ? 'tour.cover_made_public' : 'tour.cover_made_private';
        await this.events.record(tx, tourEvent(principal, teamId, action, tourId, { coverId }));
      }
      return this.view(file, await repo.currentCoverId(tx, tourId), token);
    });
  }

  /** Deletes a cover and its image, registered or pending; the current one leaves the tour without a cover. */
  async remove(principal: Principal, tourId: number, coverId: number): Promise<void> {
    const tour = await requireTour(this.db, principal, tourId);
    const removed = await removeOwnedUpload(
      this.files,
      tour.teamId,
      repo.tourCoverOwner(tourId),
      coverId,
      async (tx) => {
        // The foreign keys clear tours.cover_file_id and the public link; a tour showing it has changed.
        const wasCurrent = tour.coverFileId === coverId;
        if (wasCurrent) await touchTour(tx, tourId, this.clock.now());
        await this.events.record(
          tx,
          tourEvent(principal, tour.teamId, 'tour.cover_deleted', tourId, { coverId, wasCurrent }),
        );
      },
    );
    if (!removed) throw errors.notFound('cover');
  }
}
