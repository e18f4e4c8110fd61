import { once } from '../shared/lazy-module.ts';

/** What `compile` makes of a route's schema, made on first use; the registry of those not made yet. */
const pending = new Set<() => unknown>();

/**
 * Defers compiling a route's validator or serializer to the first request that needs it: a process keeps no
 * generated code for routes it never serves (compiled, those of every route hold megabytes), and an app
 * starts sooner. Answers the getter that compiles once and then returns what it made.
 */
export function onFirstUse<T>(compile: () => T): () => T {
  const get = once(() => {
    pending.delete(get);
    return compile();
  });
  pending.add(get);
  return get;
}

/** Compiles everything still waiting for its first use (tests: a schema that cannot compile fails there). */
export function compileAllPending(): number {
  const waiting = [...pending];
  for (const get of waiting) get();
  return waiting.length;
}
