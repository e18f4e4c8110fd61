import { type Static, Type } from '@sinclair/typebox';

/** `FEATURE_FLAGS`: the flags `GET /api/v1/flags` answers. */
export const FlagsEnv = Type.Object({
  FEATURE_FLAGS: Type.Optional(Type.String({ maxLength: 16_384 })),
});

/**
 * One flag: on or off for everyone, or on for callers who belong to at least one team on one of
 * `plans` (plan ids as in `tmw plans`).
 */
export type FlagRule = Readonly<
  { name: string; enabled: boolean } | { name: string; plans: readonly string[] }
>;

export type FeatureFlags = readonly FlagRule[];

const NAME = /^[A-Za-z][A-Za-z0-9_.-]{0,63}$/;
const PLAN = /^[a-z0-9][a-z0-9_-]{0,63}$/;

/**
 * Reads `name=true,other=false,bulkExport=pro|label|enterprise`: `true` or `false`, or the plans (joined
 * with `|`) whose teams' members get the flag. A message for every entry that is not one of those.
 */
export function parseFeatureFlags(env: Static<typeof FlagsEnv>): { value: FeatureFlags; problems: string[] } {
  const rules: FlagRule[] = [];
  const problems: string[] = [];
  for (const entry of (env.FEATURE_FLAGS ?? '').split(',').map((part) => part.trim())) {
    if (entry === '') continue;
    const [rawName = '', rawValue, ...rest] = entry.split('=');
    const [name, value] = [rawName.trim(), rawValue?.trim().toLowerCase()];
    const bad = (why: string) => problems.push(`FEATURE_FLAGS: ${JSON.stringify(entry)} ${why}`);
    if (!NAME.test(name)) bad('needs a name of letters, digits, _ . or - (starting with a letter)');
    else if (value === undefined || value === '' || rest.length > 0)
      bad('must read name=true, name=false or name=plan|plan');
    else if (rules.some((r) => r.name === name)) bad(`names ${name} a second time`);
    else if (value === 'true' || value === 'false') rules.push({ name, enabled: value === 'true' });
    else {
      const plans = value.split('|').map((p) => p.trim());
      if (plans.every((p) => PLAN.test(p))) rules.push({ name, plans: Object.freeze(plans) });
      else bad('must be true, false or plan ids joined with |');
    }
  }
  return { value: Object.freeze(rules.map((r) => Object.freeze(r))), problems };
}
