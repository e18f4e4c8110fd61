import { COMPANY_WORDS, isFunctionWord, isLexiconWord, synonymsOf } from './lexicon.ts';
import { tokenise } from './normalise.ts';

/**
 * The distinctive words a company is also called by: those before its first generic word ("Warp" for
 * "Warp Records", "Sony" for "Sony Music Entertainment"). None when the name starts with a generic word
 * or what is left is only function words, fillers, numbers or a single letter.
 */
export function companyAliases(name: string): string[] {
  const tokens = tokenise(name);
  const generic = tokens.findIndex((t) => COMPANY_WORDS.has(t.stem));
  const kept = tokens.slice(0, Math.max(generic, 0));
  while (kept.length > 0 && isFunctionWord(kept[0]!.norm)) kept.shift();
  while (kept.length > 0 && isFunctionWord(kept[kept.length - 1]!.norm)) kept.pop();
  if (kept.every((t) => t.number !== null || isLexiconWord(t.norm))) return [];
  if (kept.map((t) => t.norm).join('').length < 2) return [];
  return [name.slice(kept[0]!.from, kept[kept.length - 1]!.to)];
}

/**
 * Words that deny a status: "un" before any one-word way of naming it ("unreleased", "unmixed",
 * "unfinished"); their synonyms ("upcoming") come with them through synonyms.json.
 */
export function statusOpposites(forms: readonly string[]): string[] {
  const words = forms.flatMap((form) => [form, ...synonymsOf('statuses', form)]);
  const opposites = words
    .map((word) => tokenise(word))
    .filter((tokens) => tokens.length === 1 && tokens[0]!.number === null)
    .map(([token]) => `un${token!.norm}`);
  return [...new Set(opposites)];
}
