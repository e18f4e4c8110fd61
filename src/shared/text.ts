/** Whether text can be stored as UTF-8 text: no NUL character, no half of a surrogate pair. */
export function storableText(text: string): boolean {
  return !text.includes('\u0000') && text.isWellFormed();
}

/**
 * `text` without the characters at its end that `drop` picks, in one pass from the end. A pattern such as
 * `/x+$/` does the same in time quadratic in a run of `x` that is not at the end (each start is tried).
 */
export function withoutTrailing(text: string, drop: (char: string) => boolean): string {
  let end = text.length;
  while (end > 0 && drop(text[end - 1]!)) end--;
  return text.slice(0, end);
}
