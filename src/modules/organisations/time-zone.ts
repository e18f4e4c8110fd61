/** The IANA name of a time zone in its canonical spelling (`europe/berlin` → `Europe/Berlin`), or undefined. */
export function canonicalTimeZone(zone: string): string | undefined {
  try {
    return new Intl.DateTimeFormat('en-US', { timeZone: zone }).resolvedOptions().timeZone;
  } catch {
    return undefined;
  }
}
