import type { Db } from '../../../db/client.ts';
import type { EventLog } from '../../../events/event-log.ts';
import type { Principal } from '../../../plugins/auth.ts';
import type { Clock } from '../../../shared/clock.ts';
import { errors } from '../../../shared/errors.ts';
import { sessionUserId } from '../../../shared/tenancy.ts';
import { goneAsNotFound } from '../gone-as-not-found.ts';
import { requireCreatorOrManager, requireThread, type ThreadAccess } from '../thread-access.ts';
import { memberRemoved, membersAdded } from './member-events.ts';
import * as repo from './threads.repository.ts';
import { type ChatThreadsService, requireTeamMembers } from './threads.service.ts';

const MANAGE_MEMBERS = 'Only the thread’s creator or a team owner or admin changes its members';

function requireGroup(access: ThreadAccess): void {
  if (access.type !== 'group')
    throw errors.badRequest('not_a_group_thread', 'Members are added and removed in group threads only');
}

/** Who is in a thread: leaving it, and the members of group threads. */
export class ChatThreadMembersService {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly events: EventLog,
    private readonly threads: ChatThreadsService,
  ) {}

  /**
   * The caller leaves: a team thread only leaves their list until its next message (they still belong to
   * its teams); from any other thread they are removed.
   */
  async leave(principal: Principal, threadId: string): Promise<void> {
    const userId = sessionUserId(principal);
    const access = await requireThread(this.db, userId, threadId);
    const now = this.clock.now();
    await goneAsNotFound('chat thread', () => this.leaveIn(access, userId, now));
  }

  private leaveIn(access: ThreadAccess, userId: string, now: Date) {
    const threadId = access.id;
    return this.db.transaction(async (tx) => {
      if (access.type === 'team') {
        await repo.hideThread(tx, threadId, userId, now);
        return;
      }
      if (await repo.removeMember(tx, threadId, userId, now))
        await memberRemoved(this.events, tx, access, userId, userId, 'left');
    });
  }

  /** Adds people of the thread's teams to a group thread (its creator or a team owner or admin). */
  async add(principal: Principal, threadId: string, memberIds: string[]) {
    const userId = sessionUserId(principal);
    const access = await requireThread(this.db, userId, threadId);
    requireGroup(access);
    requireCreatorOrManager(access, userId, MANAGE_MEMBERS);
    const ids = [...new Set(memberIds.map((id) => id.toLowerCase()))];
    await requireTeamMembers(this.db, access.teamIds, ids, memberIds);
    return goneAsNotFound('chat thread', () =>
      this.db.transaction(async (tx) => {
        const added = await repo.addMembers(tx, threadId, ids, this.clock.now());
        await membersAdded(this.events, tx, access, userId, added);
        return this.threads.view(tx, userId, threadId);
      }),
    );
  }

  /** Removes a member from a group thread (its creator or a team owner or admin; anyone removes themselves). */
  async remove(principal: Principal, threadId: string, memberId: string): Promise<void> {
    const userId = sessionUserId(principal);
    const access = await requireThread(this.db, userId, threadId);
    requireGroup(access);
    const self = memberId.toLowerCase() === userId;
    if (!self) requireCreatorOrManager(access, userId, MANAGE_MEMBERS);
    await this.db.transaction(async (tx) => {
      if (!(await repo.removeMember(tx, threadId, memberId, this.clock.now())))
        throw errors.notFound('member');
      await memberRemoved(this.events, tx, access, userId, memberId.toLowerCase(), self ? 'left' : 'removed');
    });
  }
}
