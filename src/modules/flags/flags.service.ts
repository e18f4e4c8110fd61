import type { Db } from '../../db/client.ts';
import type { Principal } from '../../plugins/auth.ts';
import { sessionUserId } from '../../shared/tenancy.ts';
import type { FeatureFlags } from './flags.config.ts';
import { plansOfMember } from './flags.repository.ts';

/** The feature flags of a caller: configured on or off, or on through the plan of any of their teams. */
export class FlagsService {
  private readonly byPlan: boolean;

  constructor(
    private readonly db: Db,
    private readonly rules: FeatureFlags,
  ) {
    this.byPlan = rules.some((r) => 'plans' in r);
  }

  async forCaller(principal: Principal): Promise<{ flags: Record<string, boolean> }> {
    const userId = sessionUserId(principal);
    // Without a plan-bound flag there is nothing to look up.
    const plans = this.byPlan ? await plansOfMember(this.db, userId) : new Set<string>();
    const flags: Record<string, boolean> = {};
    for (const rule of this.rules)
      flags[rule.name] = 'plans' in rule ? rule.plans.some((p) => plans.has(p)) : rule.enabled;
    return { flags };
  }
}
