/**
 * The refusal codes a server path can answer with, read from the server's code: every `new DomainError(code, …)`
 * reachable from the path's entry points (route handlers, middleware), following calls and function values through
 * the type checker (a service reached through its deps' `ReturnType<typeof create…>` type resolves to its body). A
 * code given as a variable counts with each string literal its type can hold.
 *
 * It over-approximates (a function reached counts whole, whichever branch a request takes) and misses only what the
 * checker cannot see: a function reached through an interface with no body, or a code built at run time. Used by the
 * screens' tests to prove that every code a path can answer with has words on the screen (issue 23, the kiosk and the
 * cashier screens).
 */
import ts from 'typescript'
import { resolve } from 'node:path'
import { ErrorCode } from '../../server/src/shared/errors.ts'

const ROOT = resolve(import.meta.dirname, '../..')
const SERVER = resolve(ROOT, 'server/src') + '/'
/** More literals than this in a code's type is the ErrorCode type itself, not a choice among a few codes. */
const WIDEST = 12

/** Where a path starts: the handlers (and middleware) of a route, or the `app.use` handlers of a file. */
export type Entry = { file: string; route: { method: string; path: string } } | { file: string; use: string }

let program: ts.Program | null = null
/** One program for the worker's files (it takes seconds to check), made again when a file is not in it. */
function load(files: string[]): ts.Program {
  if (program && files.every((f) => program?.getSourceFile(resolve(ROOT, f)))) return program
  const config = ts.readConfigFile(resolve(ROOT, 'tsconfig.json'), (f) => ts.sys.readFile(f))
  const parsed = ts.parseJsonConfigFileContent(config.config, ts.sys, ROOT)
  program = ts.createProgram(
    files.map((f) => resolve(ROOT, f)),
    parsed.options,
  )
  return program
}

function entryNodes(sf: ts.SourceFile, entry: Entry): ts.Node[] {
  const found: ts.Node[] = []
  const visit = (n: ts.Node) => {
    if (
      ts.isCallExpression(n) &&
      ts.isPropertyAccessExpression(n.expression) &&
      ts.isIdentifier(n.expression.expression) &&
      n.expression.expression.text === 'app' &&
      n.arguments.length > 1 &&
      ts.isStringLiteral(n.arguments[0])
    ) {
      const method = n.expression.name.text
      const path = n.arguments[0].text
      if (
        'route' in entry
          ? method === entry.route.method && path === entry.route.path
          : method === 'use' && path === entry.use
      )
        found.push(...n.arguments.slice(1))
    }
    ts.forEachChild(n, visit)
  }
  visit(sf)
  return found
}

/** The codes (sorted) every `new DomainError(…)` reachable from the entries can carry. */
export function refusalCodesOf(entries: Entry[]): string[] {
  const p = load([...new Set(entries.map((e) => e.file))])
  const checker = p.getTypeChecker()
  const codes = new Set<string>()
  const seen = new Set<ts.Node>()

  const inServer = (n: ts.Node) => {
    const f = n.getSourceFile().fileName
    return f.startsWith(SERVER) && !f.endsWith('.test.ts')
  }
  const known = new Set<string>(Object.values(ErrorCode))
  /** A class of the DomainError family (PlayerExcluded): its `super(code, …)` is a refusal too. */
  const isRefusalClass = (c: ts.ClassLikeDeclaration | undefined) =>
    !!c?.heritageClauses?.some((h) => h.types.some((t) => t.expression.getText() === 'DomainError'))
  const literalsOf = (t: ts.Type): string[] =>
    t.isUnion() ? t.types.flatMap(literalsOf) : t.isStringLiteral() ? [t.value] : []

  /** The function a symbol stands for, through imports, shorthand properties and `const f = () => …`. */
  function functionOf(symbol: ts.Symbol | undefined, depth = 0): ts.Node | null {
    if (!symbol || depth > 5) return null
    if (symbol.flags & ts.SymbolFlags.Alias) return functionOf(checker.getAliasedSymbol(symbol), depth + 1)
    for (const d of symbol.declarations ?? []) {
      if (
        ts.isFunctionDeclaration(d) ||
        ts.isMethodDeclaration(d) ||
        ts.isFunctionExpression(d) ||
        ts.isArrowFunction(d)
      )
        return d
      if (ts.isShorthandPropertyAssignment(d))
        return functionOf(checker.getShorthandAssignmentValueSymbol(d), depth + 1)
      if ((ts.isVariableDeclaration(d) || ts.isPropertyAssignment(d)) && d.initializer) {
        const init = d.initializer
        if (ts.isArrowFunction(init) || ts.isFunctionExpression(init)) return init
        if (ts.isIdentifier(init) || ts.isPropertyAccessExpression(init))
          return functionOf(checker.getSymbolAtLocation(init), depth + 1)
      }
    }
    return null
  }

  function functionOrClassOf(symbol: ts.Symbol | undefined): ts.Node | null {
    const s = symbol && symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol
    return s?.declarations?.find(ts.isClassDeclaration) ?? null
  }

  function walk(node: ts.Node): void {
    if (seen.has(node) || !inServer(node)) return
    seen.add(node)
    const visit = (n: ts.Node) => {
      if (ts.isNewExpression(n) && ts.isIdentifier(n.expression) && n.expression.text === 'DomainError') {
        const arg = n.arguments?.[0]
        // A code of the whole ErrorCode type (a rethrow, a table) names no code of its own: its source is on the path.
        const named = arg ? literalsOf(checker.getTypeAtLocation(arg)) : []
        if (named.length <= WIDEST) for (const c of named) codes.add(c)
      }
      // A refusal built as a result first (`{ ok: false, code: 'SALES_CLOSED' }`) and thrown by its reader.
      if (ts.isPropertyAssignment(n) && n.name.getText() === 'code' && ts.isStringLiteral(n.initializer))
        if (known.has(n.initializer.text)) codes.add(n.initializer.text)
      if (ts.isCallExpression(n) && n.expression.kind === ts.SyntaxKind.SuperKeyword) {
        const arg = n.arguments[0]
        const cls = ts.findAncestor(n, ts.isClassLike)
        if (arg && isRefusalClass(cls)) for (const c of literalsOf(checker.getTypeAtLocation(arg))) codes.add(c)
      }
      if (ts.isNewExpression(n)) {
        const cls = functionOrClassOf(checker.getSymbolAtLocation(n.expression))
        if (cls && ts.isClassLike(cls) && isRefusalClass(cls)) walk(cls)
      }
      if (ts.isCallExpression(n)) {
        // A literal code handed to a parameter of the ErrorCode type (`fail('X', …)`, a helper that builds the error).
        const sig = checker.getResolvedSignature(n)
        sig?.getParameters().forEach((param, i) => {
          const arg = n.arguments[i]
          if (!arg || !ts.isStringLiteral(arg) || !known.has(arg.text)) return
          if (literalsOf(checker.getTypeOfSymbolAtLocation(param, n)).length > WIDEST) codes.add(arg.text)
        })
        const d = sig?.declaration
        if (d && !ts.isJSDocSignature(d) && 'body' in d && d.body) walk(d)
      }
      // A function handed on as a value (a guard set on the context, a callback) runs on the path too.
      if (ts.isIdentifier(n) || ts.isPropertyAccessExpression(n)) {
        const target = ts.isPropertyAccessExpression(n) ? n.name : n
        const f = functionOf(checker.getSymbolAtLocation(target))
        if (f) walk(f)
      }
      ts.forEachChild(n, visit)
    }
    ts.forEachChild(node, visit)
  }

  for (const e of entries) {
    const sf = p.getSourceFile(resolve(ROOT, e.file))
    if (!sf) throw new Error(`no such file: ${e.file}`)
    const nodes = entryNodes(sf, e)
    if (!nodes.length) throw new Error(`no entry ${JSON.stringify(e)} in ${e.file}`)
    for (const n of nodes) walk(n)
  }
  return [...codes].sort()
}
