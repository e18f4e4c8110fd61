import type { Db } from '../../db/client.ts';
import type { StatusConfig } from '../../db/schema/index.ts';
import type { Principal } from '../../plugins/auth.ts';
import type { Clock } from '../../shared/clock.ts';
import { errors } from '../../shared/errors.ts';
import { MANAGERS, requireTeam } from '../../shared/tenancy.ts';
import { planStatusChange, type StatusConfigPatch } from './status-config.validation.ts';
import { moveStatus, statusesInUse } from './status-usage.ts';
import { findStatusConfig, lockTeam, updateTeam } from './teams.repository.ts';

/** The team's track and album statuses; changing them moves or protects the items that use them. */
export class StatusConfigService {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
  ) {}

  async get(principal: Principal, teamId: number): Promise<StatusConfig> {
    await requireTeam(this.db, principal, teamId);
    const config = await findStatusConfig(this.db, teamId);
    if (!config) throw errors.notFound('team');
    return { tracks: config.tracks, albums: config.albums };
  }

  async update(principal: Principal, teamId: number, patch: StatusConfigPatch): Promise<StatusConfig> {
    await requireTeam(this.db, principal, teamId, MANAGERS);
    return this.db.transaction(async (tx) => {
      const team = await lockTeam(tx, teamId);
      if (!team) throw errors.notFound('team');
      const { next, changes } = planStatusChange(team.statusConfig, patch);
      for (const { kind, removed, moves } of changes) {
        const moved = new Set(moves.map(([from]) => from));
        const stranded = await statusesInUse(
          tx,
          teamId,
          kind,
          removed.filter((id) => !moved.has(id)),
        );
        if (stranded.length > 0)
          throw errors.conflict(
            `The ${kind} status${stranded.length > 1 ? 'es' : ''} ${stranded.join(', ')} ` +
              `${stranded.length > 1 ? 'are' : 'is'} in use; name a target in patch.moves.${kind}`,
          );
        for (const [from, to] of moves) {
          const target = next[kind].find((s) => s.id === to);
          if (target) await moveStatus(tx, teamId, kind, from, target);
        }
      }
      const updated = await updateTeam(tx, teamId, { statusConfig: next }, this.clock.now());
      return { tracks: updated.statusConfig.tracks, albums: updated.statusConfig.albums };
    });
  }
}
