import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';

/**
 * One regular expression written in the sources: a literal, a `RegExp` built from a string, or a schema's
 * `pattern`. `source` is undefined when the string is only known at run time.
 */
export type WrittenPattern = {
  /** `path:line` of the expression. */
  at: string;
  kind: 'literal' | 'constructor' | 'schema pattern';
  source: string | undefined;
  flags: string;
  /** The expression as written, to name it when its source cannot be known. */
  text: string;
};

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [path] : [];
  });
}

/** Top-level and local `const NAME = <string>` declarations of a file, for resolving names in patterns. */
function constantStrings(file: ts.SourceFile): Map<string, ts.Expression> {
  const found = new Map<string, ts.Expression>();
  const visit = (node: ts.Node) => {
    if (
      ts.isVariableDeclaration(node) &&
      ts.isIdentifier(node.name) &&
      node.initializer &&
      ts.isVariableDeclarationList(node.parent) &&
      node.parent.flags & ts.NodeFlags.Const
    )
      found.set(node.name.text, node.initializer);
    ts.forEachChild(node, visit);
  };
  visit(file);
  return found;
}

/** The value of a string expression when the file alone fixes it: literals, `+`, templates and constants. */
function constantValue(
  node: ts.Expression,
  constants: Map<string, ts.Expression>,
  depth = 0,
): string | undefined {
  if (depth > 10) return undefined;
  if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) return node.text;
  if (ts.isParenthesizedExpression(node) || ts.isAsExpression(node))
    return constantValue(node.expression, constants, depth + 1);
  if (ts.isRegularExpressionLiteral(node)) return literalParts(node.text).source;
  if (ts.isIdentifier(node)) {
    const initializer = constants.get(node.text);
    return initializer ? constantValue(initializer, constants, depth + 1) : undefined;
  }
  if (ts.isPropertyAccessExpression(node) && node.name.text === 'source')
    return constantValue(node.expression, constants, depth + 1);
  if (ts.isBinaryExpression(node) && node.operatorToken.kind === ts.SyntaxKind.PlusToken) {
    const left = constantValue(node.left, constants, depth + 1);
    const right = constantValue(node.right, constants, depth + 1);
    return left === undefined || right === undefined ? undefined : left + right;
  }
  if (ts.isTemplateExpression(node)) {
    let text = node.head.text;
    for (const span of node.templateSpans) {
      const value = constantValue(span.expression, constants, depth + 1);
      if (value === undefined) return undefined;
      text += value + span.literal.text;
    }
    return text;
  }
  return undefined;
}

function literalParts(text: string): { source: string; flags: string } {
  const end = text.lastIndexOf('/');
  return { source: text.slice(1, end), flags: text.slice(end + 1) };
}

const isRegExpCall = (node: ts.Node): node is ts.NewExpression | ts.CallExpression =>
  (ts.isNewExpression(node) || ts.isCallExpression(node)) &&
  ts.isIdentifier(node.expression) &&
  node.expression.text === 'RegExp';

/**
 * Every regular expression the TypeScript sources under `root` write: regular-expression literals,
 * `new RegExp(...)` and `RegExp(...)` calls (their strings evaluated when constant), and `pattern:`
 * properties holding a string (the schemas'; the served OpenAPI document gives those of the routes too).
 */
export function writtenPatterns(root: string, dir = 'src'): WrittenPattern[] {
  const patterns: WrittenPattern[] = [];
  for (const path of sourceFiles(join(root, dir))) {
    const file = ts.createSourceFile(path, readFileSync(path, 'utf8'), ts.ScriptTarget.Latest, true);
    const constants = constantStrings(file);
    const where = (node: ts.Node) =>
      `${relative(root, path)}:${file.getLineAndCharacterOfPosition(node.getStart(file)).line + 1}`;
    const visit = (node: ts.Node) => {
      if (ts.isRegularExpressionLiteral(node)) {
        patterns.push({ at: where(node), kind: 'literal', ...literalParts(node.text), text: node.text });
      } else if (isRegExpCall(node)) {
        const [pattern, flags] = node.arguments ?? [];
        patterns.push({
          at: where(node),
          kind: 'constructor',
          source: pattern ? constantValue(pattern, constants) : '',
          flags: flags ? (constantValue(flags, constants) ?? '') : '',
          text: node.getText(file),
        });
      } else if (
        ts.isPropertyAssignment(node) &&
        (ts.isIdentifier(node.name) || ts.isStringLiteral(node.name)) &&
        node.name.text === 'pattern' &&
        !ts.isRegularExpressionLiteral(node.initializer)
      ) {
        // Schema validators compile patterns with the `u` flag.
        patterns.push({
          at: where(node),
          kind: 'schema pattern',
          source: constantValue(node.initializer, constants),
          flags: 'u',
          text: node.getText(file),
        });
      }
      ts.forEachChild(node, visit);
    };
    visit(file);
  }
  return patterns;
}

/** Every `pattern` (and `patternProperties` key) of a JSON Schema document such as the served OpenAPI one. */
export function documentPatterns(document: unknown, at = '#'): { at: string; source: string }[] {
  if (Array.isArray(document)) return document.flatMap((item, i) => documentPatterns(item, `${at}/${i}`));
  if (typeof document !== 'object' || document === null) return [];
  return Object.entries(document).flatMap(([key, value]) => {
    const here = `${at}/${key.replaceAll('~', '~0').replaceAll('/', '~1')}`;
    if (key === 'pattern' && typeof value === 'string') return [{ at: here, source: value }];
    const own =
      key === 'patternProperties' && typeof value === 'object' && value !== null
        ? Object.keys(value).map((source) => ({ at: here, source }))
        : [];
    return [...own, ...documentPatterns(value, here)];
  });
}
