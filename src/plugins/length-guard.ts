import { _, type Ajv, type CodeKeywordDefinition } from 'ajv';

/** The keywords that scan a whole string (a regular expression or a format check). */
const SCANNING_KEYWORDS = ['pattern', 'format'] as const;

/** Whether `text` has at most `max` characters, counted as `maxLength` counts them (code points). */
export function withinLength(text: string, max: number): boolean {
  if (text.length <= max) return true;
  if (text.length > 2 * max) return false;
  let count = 0;
  for (const _char of text) if (++count > max) return false;
  return true;
}

/** Whether `text` has at least `min` characters, counted as `minLength` counts them (code points). */
export function atLeastLength(text: string, min: number): boolean {
  if (text.length < min) return false;
  if (text.length >= 2 * min) return true;
  let count = 0;
  for (const _char of text) if (++count >= min) return true;
  return false;
}

/**
 * Ajv's own `maxLength` and `minLength` count every character of the string (about 15 ms for 1 MiB of
 * request text); these count only when the length in UTF-16 units cannot answer alone (a character is one
 * or two of them). Same keywords, errors and messages.
 */
export function quickLengthLimits(ajv: Ajv): Ajv {
  for (const [keyword, test] of [
    ['maxLength', withinLength],
    ['minLength', atLeastLength],
  ] as const) {
    const base = ajv.getKeyword(keyword) as CodeKeywordDefinition;
    ajv.removeKeyword(keyword);
    ajv.addKeyword({
      ...base,
      keyword,
      code(cxt) {
        const check = cxt.gen.scopeValue('func', { ref: test });
        cxt.fail$data(_`!${check}(${cxt.data}, ${cxt.schemaCode})`);
      },
    });
  }
  return ajv;
}

/**
 * Makes Ajv's own `pattern` and `format` skip a string that already fails its schema's `maxLength`. With
 * `allErrors` Ajv runs every keyword whatever failed before, so without this a regular expression would scan
 * request text of any size; here its work is bounded by the schema's `maxLength`.
 */
export function scanWithinMaxLength(ajv: Ajv): Ajv {
  for (const keyword of SCANNING_KEYWORDS) {
    const base = ajv.getKeyword(keyword) as CodeKeywordDefinition;
    ajv.removeKeyword(keyword);
    ajv.addKeyword({
      ...base,
      code(cxt, ruleType) {
        const max: unknown = cxt.parentSchema.maxLength;
        if (ruleType !== 'string' || typeof max !== 'number') return base.code(cxt, ruleType);
        const within = cxt.gen.scopeValue('func', { ref: withinLength });
        cxt.gen.if(_`${within}(${cxt.data}, ${max})`, () => base.code(cxt, ruleType));
      },
    });
  }
  return ajv;
}
