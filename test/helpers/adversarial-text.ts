/**
 * Long inputs built to make a regular expression backtrack: runs of the characters its classes take, and
 * repeats of its pieces, ended by a character that forces a mismatch. Reads the subset of regular-expression
 * syntax request schemas use (classes, escapes, groups, alternation, quantifiers, anchors).
 */

/** A single-character piece (literal, escape, class) or a group of alternative sequences. */
type Piece = { kind: 'char'; source: string } | { kind: 'group'; branches: Atom[][] };
/** A piece with its repetition bounds. */
type Atom = Piece & { min: number; max: number };

export type AdversarialText = { label: string; text: string };

const ascii = (from: number, to: number) =>
  Array.from({ length: to - from + 1 }, (_, i) => String.fromCharCode(from + i));

/**
 * Candidate characters, the ordinary ones first (a sample takes the first a piece matches): ASCII, and a few
 * outside it that classes and `\s` treat specially.
 */
const POOL = [
  ...ascii(0x61, 0x7a),
  ...ascii(0x41, 0x5a),
  ...ascii(0x30, 0x39),
  ...ascii(0x20, 0x2f),
  ...ascii(0x3a, 0x40),
  ...ascii(0x5b, 0x60),
  ...ascii(0x7b, 0x7f),
  ...ascii(0x00, 0x1f),
  '\u00a0',
  'é',
  '\u2028',
  '\ufeff',
  '\uffff',
  '😀',
];

/** Characters that end a run: whitespace, NUL, punctuation, a non-character (the one `\S` takes). */
const ENDINGS = [' ', '\u0000', '!', '\uffff'];

function closingBracket(source: string, open: number): number {
  let i = open + 1;
  if (source[i] === '^') i++;
  if (source[i] === ']') i++;
  for (; i < source.length; i++) {
    if (source[i] === '\\') i++;
    else if (source[i] === ']') return i;
  }
  throw new Error(`unclosed class in ${source}`);
}

function closingParen(source: string, open: number): number {
  let depth = 0;
  for (let i = open; i < source.length; i++) {
    const c = source[i];
    if (c === '\\') i++;
    else if (c === '[') i = closingBracket(source, i);
    else if (c === '(') depth++;
    else if (c === ')' && --depth === 0) return i;
  }
  throw new Error(`unclosed group in ${source}`);
}

function escapeEnd(source: string, at: number): number {
  const next = source[at + 1];
  if (next === 'u') return source[at + 2] === '{' ? source.indexOf('}', at) + 1 : at + 6;
  if (next === 'x') return at + 4;
  return at + 2;
}

/** Reads a quantifier at `at`, if any: its bounds and where it ends. */
function quantifier(source: string, at: number): { min: number; max: number; end: number } {
  const c = source[at];
  let bounds = { min: 1, max: 1, end: at };
  if (c === '*') bounds = { min: 0, max: Infinity, end: at + 1 };
  else if (c === '+') bounds = { min: 1, max: Infinity, end: at + 1 };
  else if (c === '?') bounds = { min: 0, max: 1, end: at + 1 };
  else if (c === '{') {
    const match = /^\{(\d+)(,(\d*))?\}/.exec(source.slice(at));
    if (match) {
      const min = Number(match[1]);
      const max = match[2] ? (match[3] ? Number(match[3]) : Infinity) : min;
      bounds = { min, max, end: at + match[0].length };
    }
  }
  if (bounds.end > at && source[bounds.end] === '?') bounds.end++;
  return bounds;
}

function splitBranches(source: string): string[] {
  const branches: string[] = [];
  let start = 0;
  for (let i = 0; i < source.length; i++) {
    const c = source[i];
    if (c === '\\') i = escapeEnd(source, i) - 1;
    else if (c === '[') i = closingBracket(source, i);
    else if (c === '(') i = closingParen(source, i);
    else if (c === '|') {
      branches.push(source.slice(start, i));
      start = i + 1;
    }
  }
  branches.push(source.slice(start));
  return branches;
}

function parseSequence(source: string): Atom[] {
  const atoms: Atom[] = [];
  let i = 0;
  while (i < source.length) {
    const c = source[i]!;
    if (c === '^' || c === '$') {
      i++;
      continue;
    }
    let end: number;
    let atom: Piece;
    if (c === '(') {
      end = closingParen(source, i) + 1;
      const inner = source.slice(i + 1, end - 1);
      const lookaround = /^\?<?[=!]/.test(inner);
      const body = inner.replace(/^\?(?::|<?[=!]|<[A-Za-z]\w*>)/, '');
      if (lookaround) {
        i = end;
        continue;
      }
      atom = { kind: 'group', branches: splitBranches(body).map(parseSequence) };
    } else {
      end = c === '[' ? closingBracket(source, i) + 1 : c === '\\' ? escapeEnd(source, i) : i + 1;
      atom = { kind: 'char', source: source.slice(i, end) };
    }
    const { min, max, end: after } = quantifier(source, end);
    atoms.push({ ...atom, min, max });
    i = after;
  }
  return atoms;
}

const membersCache = new Map<string, string[]>();

/** The pool characters a single-character piece of a pattern matches. */
function members(source: string): string[] {
  let found = membersCache.get(source);
  if (!found) {
    const single = new RegExp(`^(?:${source})$`, 'u');
    found = POOL.filter((c) => single.test(c));
    membersCache.set(source, found);
  }
  return found;
}

/** A short text the atoms match, each quantified piece present at least once. */
function sample(atoms: Atom[]): string {
  return atoms
    .map((atom) => {
      const once = atom.kind === 'char' ? (members(atom.source)[0] ?? '') : sample(atom.branches[0] ?? []);
      return once.repeat(Math.max(atom.min, 1));
    })
    .join('');
}

/** Every single-character piece of the atoms, groups included. */
function charSources(atoms: Atom[]): string[] {
  return atoms.flatMap((atom) =>
    atom.kind === 'char' ? [atom.source] : atom.branches.flatMap((branch) => charSources(branch)),
  );
}

/** Up to two characters of a list: its first and last. */
const spread = (list: string[]) =>
  list.length === 0 ? [] : [...new Set([list[0]!, list[list.length - 1]!])];

const fill = (piece: string, length: number) => piece.repeat(Math.max(1, Math.ceil(length / piece.length)));

/**
 * Inputs of about `length` characters for `pattern`, made one at a time: for each repeatable piece, a
 * valid-looking prefix, then the piece repeated, then each ending; plus long runs of every class's
 * characters and repeats of the pattern's own sample text, with each ending.
 */
export function* adversarialTexts(pattern: string, length: number): Generator<AdversarialText> {
  const bodies: [label: string, make: () => string][] = [];
  const visit = (atoms: Atom[], outer: string) => {
    atoms.forEach((atom, index) => {
      const prefix = outer + sample(atoms.slice(0, index));
      if (atom.max > 1) {
        const pieces =
          atom.kind === 'char' ? spread(members(atom.source)) : atom.branches.map((branch) => sample(branch));
        for (const piece of pieces.filter((p) => p !== ''))
          bodies.push([
            `${JSON.stringify(prefix)} + run of ${JSON.stringify(piece)}`,
            () => prefix + fill(piece, length),
          ]);
      }
      if (atom.kind === 'group') for (const branch of atom.branches) visit(branch, prefix);
    });
  };
  for (const branch of splitBranches(pattern)) {
    const atoms = parseSequence(branch);
    visit(atoms, '');
    const whole = sample(atoms);
    if (whole) bodies.push([`repeats of ${JSON.stringify(whole)}`, () => fill(whole, length)]);
    const runs = new Set(charSources(atoms).flatMap((source) => spread(members(source))));
    for (const c of runs) bodies.push([`run of ${JSON.stringify(c)}`, () => fill(c, length)]);
  }
  for (const [label, make] of bodies) {
    const body = make();
    for (const ending of ['', ...ENDINGS])
      yield { label: `${label} + ${JSON.stringify(ending)}`, text: body + ending };
  }
  for (const ending of ENDINGS)
    yield { label: `run of ${JSON.stringify(ending)}`, text: fill(ending, length) };
}
