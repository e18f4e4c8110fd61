const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Whether text can be stored as UTF-8 text: no NUL character, no half of a surrogate pair. */
export function storableText(text: string): boolean {
  return !text.includes('\u0000') && !LONE_SURROGATE.test(text);
}
