import { fold } from './normalise.ts';

/** How much of one vocabulary list the parser reads; typo matching costs grow with it. */
export type VocabularyLimits = { phrases: number; characters: number };

export const VOCABULARY_LIMITS: VocabularyLimits = { phrases: 1000, characters: 30_000 };

/**
 * The values of a list the parser reads: all of them within the limits; past them, the values sent most
 * often (case and accents aside), then the shortest, then the first sent, kept in the order sent. The
 * choice depends only on the list, so the same list always reads the same.
 */
export function boundedValues(
  values: readonly string[],
  limits: VocabularyLimits = VOCABULARY_LIMITS,
): readonly string[] {
  const characters = values.reduce((sum, value) => sum + value.length, 0);
  if (values.length <= limits.phrases && characters <= limits.characters) return values;
  const timesSent = new Map<string, number>();
  const distinct = new Map<string, { value: string; first: number; key: string }>();
  values.forEach((value, first) => {
    const key = fold(value);
    timesSent.set(key, (timesSent.get(key) ?? 0) + 1);
    if (!distinct.has(value)) distinct.set(value, { value, first, key });
  });
  const ranked = [...distinct.values()].sort(
    (a, b) =>
      timesSent.get(b.key)! - timesSent.get(a.key)! || a.value.length - b.value.length || a.first - b.first,
  );
  const kept = new Set<string>();
  let used = 0;
  for (const { value } of ranked) {
    if (kept.size === limits.phrases) break;
    if (used + value.length > limits.characters) continue;
    kept.add(value);
    used += value.length;
  }
  return [...distinct.keys()].filter((value) => kept.has(value));
}
