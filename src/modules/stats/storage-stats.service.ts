import type { Db } from '../../db/client.ts';
import type { Principal } from '../../plugins/auth.ts';
import { requireTeam } from '../../shared/tenancy.ts';
import type { FilesService } from '../files/files.service.ts';

/** The storage a team uses against its plan's quota, for any member. */
export class StorageStatsService {
  constructor(
    private readonly db: Db,
    private readonly files: FilesService,
  ) {}

  async get(principal: Principal, teamId: number) {
    await requireTeam(this.db, principal, teamId);
    const usage = await this.files.usage(teamId);
    const usedPercent =
      usage.quotaBytes > 0 ? Math.round((usage.usedBytes / usage.quotaBytes) * 10_000) / 100 : 0;
    return { teamId, ...usage, usedPercent };
  }
}
