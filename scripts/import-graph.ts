/**
 * The import graph of the code (issue 25 point 5): every .ts/.tsx under the server, the printer, the hardware and
 * the screens, their relative imports resolved to files, and what a newcomer trips over in it: import cycles
 * (strongly connected components of more than one file), imports from a lower layer to a higher one, and the
 * largest files. Tests (*.test.ts) are left out: they sit beside the code they test and may reach anything.
 *
 *   npx tsx scripts/import-graph.ts [root]
 *
 * test/structure.test.ts runs `importGraph` and fails on any layer violation.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { dirname, join, relative, resolve, sep } from 'node:path'
import { pathToFileURL } from 'node:url'
import ts from 'typescript'

/** Where the code lives; a folder that does not exist in a given commit is skipped. */
export const SOURCE_DIRS = ['server/src', 'printer/src', 'hardware', 'kiosk/src', 'admin', 'display', 'web']

/**
 * The product lines (DESIGN.md "Layout"): each sits above shared/ and below the cash desk and http/. draws/ is the
 * one draw lifecycle lotto/ and lottery/ stand on (its DrawLine): a line may import it, it imports no line.
 */
export const PRODUCT_LINES = ['bingo', 'lotto', 'lottery', 'instant', 'draws']
const BELOW_THE_LINES = ['draws']

/** What shared/ and hardware/ never import (eslint's layerRule says the same for the editor). */
const ABOVE_THE_KERNEL = [...PRODUCT_LINES, 'cashdesk', 'equipment', 'reports', 'access', 'http', 'realtime']

export interface ImportEdge {
  from: string
  to: string
  /** `import type` / `export type`: no code runs, but a reader still follows it. */
  typeOnly: boolean
}

export interface Violation {
  from: string
  to: string
  rule: string
}

export interface ImportGraph {
  files: string[]
  edges: ImportEdge[]
  /** Strongly connected components with more than one file, biggest first. */
  cycles: string[][]
  violations: Violation[]
  /** Every file with its line count, longest first. */
  sizes: Array<{ file: string; lines: number }>
}

function sourceFiles(root: string, dir: string): string[] {
  const abs = join(root, dir)
  if (!existsSync(abs)) return []
  return readdirSync(abs, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : sourceFiles(root, path)
    return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) && !entry.name.endsWith('.d.ts')
      ? [path.split(sep).join('/')]
      : []
  })
}

/** Every module specifier a file imports or re-exports (static or dynamic), and whether only types come of it. */
function specifiers(file: string, text: string): Array<{ specifier: string; typeOnly: boolean }> {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, false)
  const found: Array<{ specifier: string; typeOnly: boolean }> = []
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) {
      const clause = node.importClause
      const typeOnly =
        !!clause &&
        (clause.isTypeOnly ||
          (!clause.name &&
            !!clause.namedBindings &&
            ts.isNamedImports(clause.namedBindings) &&
            clause.namedBindings.elements.length > 0 &&
            clause.namedBindings.elements.every((e) => e.isTypeOnly)))
      found.push({ specifier: node.moduleSpecifier.text, typeOnly })
    } else if (ts.isExportDeclaration(node) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
      found.push({ specifier: node.moduleSpecifier.text, typeOnly: node.isTypeOnly })
    } else if (
      ts.isCallExpression(node) &&
      node.expression.kind === ts.SyntaxKind.ImportKeyword &&
      node.arguments[0] &&
      ts.isStringLiteral(node.arguments[0])
    ) {
      found.push({ specifier: node.arguments[0].text, typeOnly: false })
    } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument)) {
      const lit = node.argument.literal
      if (ts.isStringLiteral(lit)) found.push({ specifier: lit.text, typeOnly: true })
    }
    ts.forEachChild(node, visit)
  }
  visit(source)
  return found
}

/** A relative specifier to a file of the graph (with or without its extension, or a folder's index). */
function resolveSpecifier(from: string, specifier: string, known: Set<string>): string | null {
  if (!specifier.startsWith('.')) return null
  const base = join(dirname(from), specifier).split(sep).join('/')
  const stem = base.replace(/\.(m?js|jsx)$/, '')
  for (const candidate of [base, `${stem}.ts`, `${stem}.tsx`, `${base}/index.ts`, `${base}/index.tsx`]) {
    if (known.has(candidate)) return candidate
  }
  return null
}

/** The server folder a file belongs to (server/src/<folder>/...), or null. */
function folderOf(file: string): string | null {
  return /^server\/src\/([^/]+)\//.exec(file)?.[1] ?? null
}

const lineOf = (file: string) => {
  const folder = folderOf(file)
  return folder && PRODUCT_LINES.includes(folder) ? folder : null
}

/** A line's routes are its HTTP edge (DESIGN.md: routes.ts validates, authorizes, calls one use case). */
export const isRoutes = (file: string) => /(^|[/-])routes\.ts$/.test(file)

/** The layer rule an import breaks, or null. */
export function layerRule(from: string, to: string): string | null {
  const lower = from.startsWith('hardware/') ? 'hardware' : folderOf(from) === 'shared' ? 'shared' : null
  const target = to.startsWith('hardware/') ? 'hardware' : folderOf(to)
  if (lower && target && ABOVE_THE_KERNEL.includes(target)) return `${lower}/ imports a higher layer`
  const fromLine = lineOf(from)
  if (!fromLine) return null
  if (target === 'cashdesk') return 'a product line imports cashdesk/'
  if (target === 'http' && !isRoutes(from)) return "a product line's use cases import http/"
  const toLine = lineOf(to)
  if (toLine && toLine !== fromLine && !BELOW_THE_LINES.includes(toLine)) {
    return BELOW_THE_LINES.includes(fromLine)
      ? `${fromLine}/ imports a product line`
      : 'a product line imports another product line'
  }
  return null
}

/** Tarjan's strongly connected components, iteratively (the graph has thousands of edges). */
function stronglyConnected(nodes: string[], next: Map<string, string[]>): string[][] {
  const index = new Map<string, number>()
  const low = new Map<string, number>()
  const onStack = new Set<string>()
  const stack: string[] = []
  const out: string[][] = []
  let counter = 0
  for (const start of nodes) {
    if (index.has(start)) continue
    const work: Array<{ node: string; i: number }> = [{ node: start, i: 0 }]
    index.set(start, counter)
    low.set(start, counter++)
    stack.push(start)
    onStack.add(start)
    while (work.length > 0) {
      const top = work[work.length - 1]
      const targets = next.get(top.node) ?? []
      if (top.i < targets.length) {
        const w = targets[top.i++]
        if (!index.has(w)) {
          index.set(w, counter)
          low.set(w, counter++)
          stack.push(w)
          onStack.add(w)
          work.push({ node: w, i: 0 })
        } else if (onStack.has(w)) {
          low.set(top.node, Math.min(low.get(top.node)!, index.get(w)!))
        }
        continue
      }
      work.pop()
      if (work.length > 0) {
        const parent = work[work.length - 1].node
        low.set(parent, Math.min(low.get(parent)!, low.get(top.node)!))
      }
      if (low.get(top.node) === index.get(top.node)) {
        const component: string[] = []
        let w: string
        do {
          w = stack.pop()!
          onStack.delete(w)
          component.push(w)
        } while (w !== top.node)
        if (component.length > 1) out.push(component.sort())
      }
    }
  }
  return out.sort((a, b) => b.length - a.length || a[0].localeCompare(b[0]))
}

export function importGraph(root: string): ImportGraph {
  const files = SOURCE_DIRS.flatMap((dir) => sourceFiles(root, dir)).sort()
  const known = new Set(files)
  const edges: ImportEdge[] = []
  const sizes: ImportGraph['sizes'] = []
  for (const file of files) {
    const text = readFileSync(join(root, file), 'utf8')
    sizes.push({ file, lines: text.split('\n').length - (text.endsWith('\n') ? 1 : 0) })
    const seen = new Map<string, boolean>()
    for (const { specifier, typeOnly } of specifiers(file, text)) {
      const to = resolveSpecifier(file, specifier, known)
      if (!to || to === file) continue
      // One edge per pair: a value import anywhere makes the pair a value import.
      seen.set(to, (seen.get(to) ?? true) && typeOnly)
    }
    for (const [to, typeOnly] of seen) edges.push({ from: file, to, typeOnly })
  }
  const next = new Map<string, string[]>()
  for (const e of edges) next.set(e.from, [...(next.get(e.from) ?? []), e.to])
  const violations = edges.flatMap((e) => {
    const rule = layerRule(e.from, e.to)
    return rule ? [{ from: e.from, to: e.to, rule }] : []
  })
  return {
    files,
    edges,
    cycles: stronglyConnected(files, next),
    violations,
    sizes: sizes.sort((a, b) => b.lines - a.lines || a.file.localeCompare(b.file)),
  }
}

export function report(graph: ImportGraph, top = 10): string {
  const lines: string[] = []
  const typeOnly = graph.edges.filter((e) => e.typeOnly).length
  lines.push(`files: ${graph.files.length}`)
  lines.push(`imports (relative, resolved): ${graph.edges.length} (${typeOnly} of types only)`)
  const inCycles = graph.cycles.reduce((n, c) => n + c.length, 0)
  lines.push(`import cycles: ${graph.cycles.length} (${inCycles} files in them)`)
  for (const cycle of graph.cycles.slice(0, top)) {
    lines.push(`  ${cycle.length} files: ${cycle.join(', ')}`)
  }
  if (graph.cycles.length > top) lines.push(`  … and ${graph.cycles.length - top} more`)
  lines.push(`imports from a lower layer to a higher one: ${graph.violations.length}`)
  const byRule = new Map<string, Violation[]>()
  for (const v of graph.violations) byRule.set(v.rule, [...(byRule.get(v.rule) ?? []), v])
  for (const [rule, list] of byRule) {
    lines.push(`  ${rule}: ${list.length}`)
    for (const v of list) lines.push(`    ${v.from} -> ${v.to}`)
  }
  const edge = graph.edges.filter((e) => isRoutes(e.from) && lineOf(e.from) && folderOf(e.to) === 'http').length
  lines.push(`  (allowed, not counted: ${edge} imports of http/ by a product line's routes, its HTTP edge)`)
  lines.push(`largest files (lines):`)
  for (const { file, lines: n } of graph.sizes.slice(0, top)) lines.push(`  ${String(n).padStart(6)}  ${file}`)
  return lines.join('\n')
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const root = resolve(process.argv[2] ?? join(import.meta.dirname, '..'))
  if (!statSync(root).isDirectory()) throw new Error(`${root} is not a folder`)
  console.log(`import graph of ${relative(process.cwd(), root) || '.'}`)
  console.log(report(importGraph(root)))
}
