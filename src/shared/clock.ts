/** The source of time for everything that stamps or expires; tests pass a controllable one. */
export type Clock = { now(): Date };

export const systemClock: Clock = { now: () => new Date() };
