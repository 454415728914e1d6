/**
 * What the global set-ups of several projects share in one vitest process (the run's browser, its
 * scratch root): made by the first set-up that asks, released by the teardown of the last one.
 */

/** One shared value and the number of set-ups still using it, by key. */
const shared = globalThis as { __conformanceShared?: Map<string, { value: unknown; users: number }> };

/** A set-up's share: the value, whether this set-up made it, and its teardown. */
export interface Share<T> {
  value: T;
  /** True for the set-up that made the value (e.g. to say something once per run). */
  first: boolean;
  /** The set-up's teardown: `release` runs when the last user leaves. */
  leave(): Promise<void>;
}

/**
 * Joins the value shared under `key`, making it with `make` when no set-up holds it yet.
 * @throws whatever `make` throws (nothing is then shared).
 */
export function joinShared<T>(key: string, make: () => T, release: (value: T) => void | Promise<void>): Share<T> {
  const all = (shared.__conformanceShared ??= new Map());
  const first = !all.has(key);
  if (first) all.set(key, { value: make(), users: 0 });
  const entry = all.get(key)!;
  entry.users += 1;
  return {
    value: entry.value as T,
    first,
    leave: async () => {
      entry.users -= 1;
      if (entry.users > 0) return;
      all.delete(key);
      await release(entry.value as T);
    },
  };
}
