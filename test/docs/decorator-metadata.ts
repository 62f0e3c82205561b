import ts from 'typescript';

// The decorator metadata a compiled file records (`design:type`, `design:paramtypes`,
// `design:returntype`), read from its JavaScript, in a form that two compilers' outputs can be
// compared in: tsc writes `__metadata("design:type", X)`, oxc (vitest's transform)
// `_decorateMetadata("design:type", X)`; an imported class is guarded differently by each
// (`typeof X === "undefined" ? Object : X` against tsc's `typeof (_a = ...) === "function" ? _a :
// Object`), which both evaluate to X when X exists, so both are read as `X`, and as `Object` when X
// is no value at run time (a type alias such as `Record`, which oxc guards and tsc replaces).

const DECORATE = /^_+decorate\d*$/;
const METADATA = /^_+(metadata|decorateMetadata)\d*$/;
// tsc's and oxc's temporaries in a guard (`_a`, `_b2`), and the fallback of the guard.
const NOT_A_TYPE = (name: string) => name === 'Object' || name === 'undefined' || /^_[a-z]\d*$/.test(name);

/** The names a compiled file binds to values: its imports and its top-level declarations. */
function valuesOf(file: ts.SourceFile): Set<string> {
  const names = new Set<string>();
  const visit = (node: ts.Node): void => {
    if (
      (ts.isImportSpecifier(node) || ts.isImportClause(node) || ts.isNamespaceImport(node)) &&
      node.name !== undefined
    ) {
      names.add(node.name.text);
    } else if (
      (ts.isClassDeclaration(node) || ts.isFunctionDeclaration(node) || ts.isVariableDeclaration(node)) &&
      node.name !== undefined &&
      ts.isIdentifier(node.name)
    ) {
      names.add(node.name.text);
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return names;
}

/** A metadata value as the name of what it evaluates to, guards of an imported class removed. */
function evaluated(node: ts.Expression, file: ts.SourceFile, values: Set<string>): string {
  if (ts.isArrayLiteralExpression(node)) {
    return `[${node.elements.map((e) => evaluated(e, file, values)).join(', ')}]`;
  }
  if (ts.isConditionalExpression(node)) {
    const names = new Set<string>();
    const visit = (n: ts.Node): void => {
      if (ts.isIdentifier(n) && !NOT_A_TYPE(n.text)) names.add(n.text);
      ts.forEachChild(n, visit);
    };
    visit(node);
    const [name] = names;
    if (names.size === 1 && name !== undefined) return values.has(name) || name in globalThis ? name : 'Object';
    if (names.size === 0) return 'Object';
  }
  return node.getText(file).replace(/\s+/g, ' ');
}

/**
 * The metadata records of a compiled file, one line each (`Target.prototype.prop design:type =
 * Number`), in the order the file declares them.
 *
 * @param js - the compiled JavaScript
 */
export function decoratorMetadata(js: string): string[] {
  const file = ts.createSourceFile('compiled.js', js, ts.ScriptTarget.Latest, true, ts.ScriptKind.JS);
  const values = valuesOf(file);
  const records: string[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isCallExpression(node) && ts.isIdentifier(node.expression) && DECORATE.test(node.expression.text)) {
      const [decorators, target, property] = node.arguments;
      if (decorators && ts.isArrayLiteralExpression(decorators) && target) {
        const where = `${target.getText(file)}${property && ts.isStringLiteral(property) ? `.${property.text}` : ''}`;
        for (const d of decorators.elements) {
          if (!ts.isCallExpression(d) || !ts.isIdentifier(d.expression) || !METADATA.test(d.expression.text)) continue;
          const [key, value] = d.arguments;
          if (key && ts.isStringLiteral(key) && value)
            records.push(`${where} ${key.text} = ${evaluated(value, file, values)}`);
        }
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return records;
}
