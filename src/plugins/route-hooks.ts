/** A route option's hooks as a list (Fastify takes one hook or several), to add a plugin's own to them. */
export const hooksOf = <T>(hooks: T | T[] | undefined): T[] =>
  hooks === undefined ? [] : ([] as T[]).concat(hooks);
