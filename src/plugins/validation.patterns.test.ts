import { describe, expect, it } from 'vitest';
import { useTestContext } from '../../test/helpers/context.ts';
import { BUDGET_MS, elapsed, firstSlow, type Slow } from '../../test/helpers/linear-time.ts';
import { withinLength } from './length-guard.ts';
import { createRequestAjv } from './validation.ts';

const ctx = useTestContext();

const MIB = 1024 * 1024;
/** Sizes tried in turn, so a super-linear pattern fails at a small size instead of running for minutes. */
const SIZES = [4 * 1024, 64 * 1024, MIB];
/** The link URL pattern before it was made linear: quadratic on a long host followed by a space. */
const QUADRATIC_URL_PATTERN = '^[Hh][Tt][Tt][Pp][Ss]?://[^\\s/?#]+[^\\s]*$';

type Node = Record<string, unknown>;
type Located = { where: string; node: Node };
/** Every schema object under `value` (a JSON pointer for each), following `$ref`s into `components`. */
function schemaNodes(
  doc: Node,
  value: unknown,
  where: string,
  found: Located[] = [],
  seen = new Set<unknown>(),
) {
  if (!value || typeof value !== 'object' || seen.has(value)) return found;
  seen.add(value);
  if (Array.isArray(value)) {
    for (const [i, item] of value.entries()) schemaNodes(doc, item, `${where}/${i}`, found, seen);
    return found;
  }
  const node = value as Node;
  const ref = node.$ref;
  if (typeof ref === 'string' && ref.startsWith('#/')) {
    const target = ref
      .slice(2)
      .split('/')
      .reduce<unknown>((at, key) => (at as Node | undefined)?.[key], doc);
    return schemaNodes(doc, target, ref, found, seen);
  }
  found.push({ where, node });
  for (const [key, inner] of Object.entries(node)) schemaNodes(doc, inner, `${where}/${key}`, found, seen);
  return found;
}

/** The schemas of what clients send: parameters and request bodies of every operation. */
function requestNodes(doc: Node): Located[] {
  const paths = doc.paths as Record<string, Record<string, Node>>;
  return Object.entries(paths).flatMap(([path, operations]) =>
    Object.entries(operations).flatMap(([method, operation]) =>
      schemaNodes(doc, [operation.parameters, operation.requestBody], `${method.toUpperCase()} ${path}`),
    ),
  );
}

const openapi = async () =>
  (await ctx.request({ method: 'GET', url: '/api/v1/openapi.json' })).json() as Node;

const formats = createRequestAjv().formats;
/** Whether validation runs code for this schema's format (`binary` and other documentation-only ones run none). */
function checkedFormat(node: Node): boolean {
  const definition = typeof node.format === 'string' ? formats[node.format] : undefined;
  return definition !== undefined && definition !== true;
}
const scans = (node: Node) => typeof node.pattern === 'string' || checkedFormat(node);

/** Shapes of the formats request schemas use, for inputs that look nearly valid. */
const FORMAT_SHAPES: Record<string, string> = {
  email: '^[a-z0-9.+-]+@[a-z0-9-]+(\\.[a-z0-9-]+)*$',
  uuid: '^[0-9a-f]{8}(-[0-9a-f]{4}){3}-[0-9a-f]{12}$',
  date: '^[0-9]{4}-[0-9]{2}-[0-9]{2}$',
  'date-time':
    '^[0-9]{4}-[0-9]{2}-[0-9]{2}[Tt ][0-9]{2}:[0-9]{2}:[0-9]{2}(\\.[0-9]+)?([Zz]|[+-][0-9]{2}:[0-9]{2})$',
};

describe('patterns and formats of request schemas', () => {
  it('gives every string a pattern or a format checks a maxLength', async () => {
    const doc = await openapi();
    const scanned = requestNodes(doc).filter(({ node }) => scans(node));
    expect(scanned.length).toBeGreaterThan(20);
    expect(scanned.map(({ node }) => node.pattern)).toContain('^[Hh][Tt][Tt][Pp][Ss]?://[^\\s/?#]\\S*$');
    const unbounded = scanned
      .filter(({ node }) => typeof node.maxLength !== 'number')
      .map(({ where }) => where);
    expect(unbounded).toEqual([]);
    // Patterns anywhere in the document, answers included, so a schema shared by both cannot slip through.
    const anywhere = schemaNodes(doc, doc.paths, '#/paths').filter(
      ({ node }) => typeof node.pattern === 'string',
    );
    expect(
      anywhere.filter(({ node }) => typeof node.maxLength !== 'number').map(({ where }) => where),
    ).toEqual([]);
  });

  it('finds a quadratic pattern slow (the check can fail)', async () => {
    const validate = createRequestAjv().compile({ type: 'string', pattern: QUADRATIC_URL_PATTERN });
    expect(await firstSlow(QUADRATIC_URL_PATTERN, validate, [4 * 1024, 16 * 1024])).toMatchObject({
      pattern: QUADRATIC_URL_PATTERN,
    });
  });

  it('runs every pattern of the document over adversarial input up to 1 MiB in linear time (under 50 ms or 20 linear scans)', async () => {
    const doc = await openapi();
    const nodes = schemaNodes(doc, doc, '#');
    const values = new Set(
      nodes.flatMap(({ node }) => (typeof node.pattern === 'string' ? [node.pattern] : [])),
    );
    const keys = new Set(
      nodes.flatMap(({ node }) => Object.keys((node.patternProperties as Node | undefined) ?? {})),
    );
    expect(values.size).toBeGreaterThan(8);
    const ajv = createRequestAjv();
    const slow: Slow[] = [];
    for (const pattern of values) {
      // No maxLength here: the expression itself must be linear, whatever guards it.
      const validate = ajv.compile({ type: 'string', pattern });
      const found = await firstSlow(pattern, validate, SIZES);
      if (found) slow.push(found);
    }
    for (const pattern of keys) {
      const validate = ajv.compile({
        type: 'object',
        patternProperties: { [pattern]: true },
        additionalProperties: false,
      });
      const found = await firstSlow(pattern, (text) => validate({ [text]: true }), SIZES);
      if (found) slow.push(found);
    }
    expect(slow).toEqual([]);
  }, 120_000);

  it('validates text up to 1 MiB against every documented request string schema in linear time (under 50 ms or 20 linear scans)', async () => {
    const doc = await openapi();
    const schemas = new Map<string, Node>();
    for (const { node } of requestNodes(doc)) {
      const { description: _, ...checks } = node;
      if (scans(node)) schemas.set(JSON.stringify(checks), checks);
    }
    const ajv = createRequestAjv();
    const slow: Slow[] = [];
    for (const [key, node] of schemas) {
      const validate = ajv.compile(node);
      const shape =
        typeof node.pattern === 'string' ? node.pattern : (FORMAT_SHAPES[node.format as string] ?? '\\S+');
      const found = await firstSlow(shape, validate, SIZES, 12);
      if (found) slow.push({ ...found, pattern: key });
    }
    expect(slow).toEqual([]);
  }, 120_000);
});

describe('patterns and formats within maxLength', () => {
  it('skips format and pattern on text over maxLength, with only the maxLength problem reported', () => {
    const ajv = createRequestAjv();
    let calls = 0;
    ajv.addFormat('counted', { type: 'string', validate: () => ++calls > 0 });
    const validate = ajv.compile({ type: 'string', maxLength: 8, format: 'counted', pattern: '^x+$' });
    expect(validate('y'.repeat(9))).toBe(false);
    expect(validate.errors?.map((e) => e.keyword)).toEqual(['maxLength']);
    expect(calls).toBe(0);
    expect(validate('y'.repeat(8))).toBe(false);
    expect(validate.errors?.map((e) => e.keyword)).toEqual(['pattern']);
    expect(calls).toBe(1);
  });

  it('keeps a super-linear pattern from running past maxLength', () => {
    const validate = createRequestAjv().compile({
      type: 'string',
      maxLength: 2048,
      pattern: QUADRATIC_URL_PATTERN,
    });
    const text = `http://${'a'.repeat(64 * 1024)} `;
    expect(elapsed(() => validate(text))).toBeLessThan(BUDGET_MS);
    expect(validate.errors?.map((e) => e.keyword)).toEqual(['maxLength']);
  });

  it('counts characters as maxLength does: a surrogate pair is one', () => {
    expect([
      withinLength('😀😀', 2),
      withinLength('😀😀x', 2),
      withinLength('ab', 2),
      withinLength('abc', 2),
    ]).toEqual([true, false, true, false]);
    const validate = createRequestAjv().compile({ type: 'string', maxLength: 2, pattern: '^😀+$' });
    expect(validate('😀😀')).toBe(true);
    expect(validate('ab')).toBe(false);
    expect(validate.errors?.map((e) => e.keyword)).toEqual(['pattern']);
  });
});

describe('link URLs', () => {
  const send = (trackId: number, kind: string, token: string, payload: string) =>
    ctx.request({
      method: 'POST',
      url: `/api/v1/tracks/${trackId}/${kind}`,
      token,
      headers: { 'content-type': 'application/json' },
      payload,
    });

  const fieldsOf = (kind: string) => (kind === 'references' ? { platform: 'x' } : {});

  /** A JSON body of `size` bytes whose URL is a long host ending in a space. */
  const bodyOf = (kind: string, size: number) => {
    const frame = JSON.stringify({ url: 'http://', ...fieldsOf(kind) });
    return JSON.stringify({ url: `http://${'a'.repeat(size - frame.length - 1)} `, ...fieldsOf(kind) });
  };

  it.each(['references', 'inspirations'])(
    'answers an over-long %s URL up to 1 MiB with a fast 400 and a larger body with a fast 413',
    async (kind) => {
      const team = await ctx.newTeam();
      const track = await ctx.newTrack(team);
      const link = JSON.stringify({ url: 'https://example.com/a%20b?c#d', ...fieldsOf(kind) });
      const ok = await send(track.id, kind, team.owner.token, link);
      expect(ok.statusCode, ok.body).toBe(201);

      for (const size of [64 * 1024, ctx.config.bodyLimit]) {
        const payload = bodyOf(kind, size);
        expect(Buffer.byteLength(payload)).toBe(size);
        const start = performance.now();
        const res = await send(track.id, kind, team.owner.token, payload);
        const ms = performance.now() - start;
        expect(res.statusCode, res.body).toBe(400);
        expect(ms).toBeLessThan(500);
        expect(res.json().details).toEqual([
          { path: '/body/url', message: 'must NOT have more than 2048 characters' },
        ]);
      }

      const start = performance.now();
      const tooLarge = await send(track.id, kind, team.owner.token, bodyOf(kind, ctx.config.bodyLimit + 1));
      expect(tooLarge.statusCode).toBe(413);
      expect(performance.now() - start).toBeLessThan(500);
    },
  );
});
