import { SEARCH_KINDS } from './kinds.ts';
import { TEMPO_WORDS } from './lexicon.ts';
import type { ParseContext } from './parser.ts';

const TEMPO_RULES = TEMPO_WORDS.map(
  ({ forms, range }) => `"${forms[0]}" is ${JSON.stringify({ min: range.min, max: range.max })}`,
).join(', ');

const SYSTEM = `You read a search sentence for a music catalogue and answer with one JSON object and nothing else.
Shape:
{"filters": {"<list>": {"include": ["..."], "exclude": ["..."]}, "statuses": {"include": [], "exclude": []},
  "text": {"include": [], "exclude": []}, "year": {"min": 2019, "max": 2021} or null, "bpm": {"min": null, "max": 120} or null},
 "matches": [{"filter": "<list>|statuses|types|text|year|bpm", "value": "<value, or null for year and bpm>", "negated": false,
  "words": ["<the words of the sentence that produced it>"]}]}
Rules:
- Values of the lists must be copied exactly from the vocabulary given; never invent one. Statuses are given by id.
- Words that name nothing in the vocabulary go to text, as written.
- "without X", "not X", "no X", "excluding X" put X in exclude.
- year and bpm bounds are inclusive whole numbers; null is open. "from 2023" is the year 2023, "90s" is 1990-1999,
  "before 2010" is max 2009, "around 120 bpm" is 115-125, "faster than 128 bpm" is min 129.
- Leave out bpm when "bpm" is not among the filters. Tempo words: ${TEMPO_RULES}.
- types (albums only) takes album, ep, single, compilation: "EPs" is ep, "LP" is album, "best of" is compilation.`;

/** The chat messages that ask a model to read a query the way the parser does. */
export function promptFor(context: ParseContext): { role: 'system' | 'user'; content: string }[] {
  const kind = SEARCH_KINDS[context.kind];
  const user = {
    sentence: context.query,
    searching: context.kind,
    today: context.today.toISOString().slice(0, 10),
    filters: [
      ...kind.fields,
      'statuses',
      ...(kind.releaseTypes ? ['types'] : []),
      'text',
      'year',
      ...(kind.tempo ? ['bpm'] : []),
    ],
    vocabulary: Object.fromEntries(kind.fields.map((f) => [f, context.vocabulary[f] ?? []])),
    statuses: context.statuses.map((s) => ({ id: s.id, name: s.name })),
  };
  return [
    { role: 'system', content: SYSTEM },
    { role: 'user', content: JSON.stringify(user) },
  ];
}
