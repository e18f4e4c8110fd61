import type { Db } from '../../db/client.ts';
import type { Principal } from '../../plugins/auth.ts';
import type { Clock } from '../../shared/clock.ts';
import { errors } from '../../shared/errors.ts';
import { sessionOf } from '../../shared/tenancy.ts';
import { revokeOtherSessions } from '../auth/credentials.repository.ts';
import * as repo from './user-sessions.repository.ts';

/** The sign-ins a person holds: seeing them and ending them. */
export class UserSessionsService {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
  ) {}

  async list(principal: Principal) {
    const session = sessionOf(principal);
    const rows = await repo.liveSessions(this.db, session.userId, this.clock.now());
    return {
      items: rows.map((row) => ({
        id: row.id,
        userAgent: row.userAgent,
        ip: row.ip,
        createdAt: row.createdAt,
        lastUsedAt: row.lastUsedAt ?? row.createdAt,
        current: row.id === session.sessionId,
      })),
    };
  }

  /** Ends one of the caller's sessions (the caller's own too: that signs out); 404 for any other. */
  async end(principal: Principal, sessionId: string): Promise<void> {
    const session = sessionOf(principal);
    if (!(await repo.endSession(this.db, session.userId, sessionId, this.clock.now())))
      throw errors.notFound('session');
  }

  /** Signs out everywhere else: every live session of the caller but this one ends. */
  async endOthers(principal: Principal) {
    const session = sessionOf(principal);
    return {
      ended: await revokeOtherSessions(this.db, session.userId, session.sessionId, this.clock.now()),
    };
  }
}
