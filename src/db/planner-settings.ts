/**
 * Every prepared statement runs its generic plan, made once per connection. Left to choose, PostgreSQL
 * planned the hot reads anew on every call (a custom plan for the values given), and planning cost more
 * than running them (a track read: 0.11 ms of planning for 0.07 ms of work). The statements are written
 * so that their plans do not depend on the values: lookups by key, a team's rows through its index.
 */
export const PLANNER_SETTINGS = { plan_cache_mode: 'force_generic_plan' } as const;
