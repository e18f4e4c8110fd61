/** Minutes east of UTC that `timeZone` (IANA) is at `at`; 0 for a zone the runtime does not know. */
export function offsetMinutes(timeZone: string, at: Date): number {
  let parts: Intl.DateTimeFormatPart[];
  try {
    parts = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    }).formatToParts(at);
  } catch {
    return 0;
  }
  const get = (type: string) => Number(parts.find((p) => p.type === type)?.value ?? 0);
  const local = Date.UTC(
    get('year'),
    get('month') - 1,
    get('day'),
    get('hour'),
    get('minute'),
    get('second'),
  );
  return Math.round((local - Math.floor(at.getTime() / 1000) * 1000) / 60_000);
}

/** Whether the runtime knows `timeZone` as an IANA zone. */
export function isTimeZone(timeZone: unknown): timeZone is string {
  if (typeof timeZone !== 'string' || timeZone.length === 0 || timeZone.length > 64) return false;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone });
    return true;
  } catch {
    return false;
  }
}

/** The instant of a wall-clock time in `timeZone` (the zone's offset on that day). */
export function zonedInstant(
  timeZone: string,
  wall: { year: number; month: number; day: number; hour: number; minute: number },
): Date {
  const asUtc = Date.UTC(wall.year, wall.month - 1, wall.day, wall.hour, wall.minute);
  const first = asUtc - offsetMinutes(timeZone, new Date(asUtc)) * 60_000;
  // Once more with the offset at the found instant (a day that changes to or from summer time).
  return new Date(asUtc - offsetMinutes(timeZone, new Date(first)) * 60_000);
}
