import { createRequire } from 'node:module';

// Heavy packages that only a few routes or jobs use load on first use, not at process start, to keep the
// memory of an idle service small.

const require = createRequire(import.meta.url);

/** `load` runs on the first call only; every later call answers what it returned then (it runs again if it threw). */
export function once<T>(load: () => T): () => T {
  let loaded: { value: T } | undefined;
  return () => {
    loaded ??= { value: load() };
    return loaded.value;
  };
}

/** A module imported on the first call (`lazyImport(() => import('pkg'))`); later calls share the promise. */
export function lazyImport<T>(load: () => Promise<T>): () => Promise<T> {
  return once(load);
}

/**
 * A package required on the first call, for synchronous callers: `lazyRequire<typeof import('pkg')>('pkg')`.
 * Only for packages with a CommonJS entry; a require that throws is tried again on the next call.
 */
export function lazyRequire<T>(id: string): () => T {
  return once(() => require(id) as T);
}
