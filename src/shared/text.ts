/** Whether text can be stored as UTF-8 text: no NUL character, no half of a surrogate pair. */
export function storableText(text: string): boolean {
  return !text.includes('\u0000') && text.isWellFormed();
}
