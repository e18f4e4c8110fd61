/**
 * How much typo matching one query may cost: a vocabulary of many look-alike phrases could otherwise
 * hold the CPU for seconds. Exact and synonym readings are lookups and are never limited.
 */
export type MatchLimits = { comparisons: number; milliseconds: number };

export const MATCH_LIMITS: MatchLimits = { comparisons: 100_000, milliseconds: 150 };

/** The clock is read once per this many comparisons: one comparison costs about a microsecond. */
const CLOCK_EVERY = 16;

/**
 * The typo comparisons and time left to one query. Once either runs out, no more typo readings are
 * tried, and the tokens left unread that way are remembered so the answer can name them.
 */
export class MatchBudget {
  private comparisonsLeft: number;
  private readonly deadline: number;
  private sinceClock = 0;
  private spent = false;
  private readonly unreadTokens = new Set<number>();

  constructor(
    limits: MatchLimits = MATCH_LIMITS,
    private readonly now: () => number = () => performance.now(),
  ) {
    this.comparisonsLeft = limits.comparisons;
    this.deadline = now() + limits.milliseconds;
  }

  /** Whether `count` more comparisons may run; once it says no, it always does. */
  allows(count = 1): boolean {
    if (this.spent) return false;
    this.comparisonsLeft -= count;
    this.sinceClock += count;
    if (this.sinceClock >= CLOCK_EVERY) {
      this.sinceClock = 0;
      if (this.now() > this.deadline) this.spent = true;
    }
    if (this.comparisonsLeft < 0) this.spent = true;
    return !this.spent;
  }

  /** Whether the budget has run out, as last seen by `allows` (the clock is not read). */
  get ranOut(): boolean {
    return this.spent;
  }

  /** Whether the budget has run out, reading the clock now. */
  exhausted(): boolean {
    if (!this.spent && this.now() > this.deadline) this.spent = true;
    return this.spent;
  }

  /** Notes tokens [start, end) as not read for typos. */
  skip(start: number, end: number): void {
    for (let i = start; i < end; i++) this.unreadTokens.add(i);
  }

  /** Whether token `i` was part of a span left unread for typos. */
  unread(i: number): boolean {
    return this.unreadTokens.has(i);
  }
}
