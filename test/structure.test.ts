/**
 * Guards of the server's layout (DESIGN.md "Layout", issue 12): SQL lives only in each line's store.ts (or its
 * store/ folder of topic modules, as bingo/store/) and in db/; a line's routes never import another line's routes; the old app/ and domain/ folders stay gone.
 * Each failure lists file:line, so the fix starts from the message.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { basename, dirname, join, relative, resolve, sep } from 'node:path'
import ts from 'typescript'
import { describe, expect, it } from 'vitest'
import { importGraph, layerRule } from '../scripts/import-graph.ts'

const root = resolve(import.meta.dirname, '..')
const serverSrc = join(root, 'server', 'src')

/** server/src/**\/*.ts without the tests. */
function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) return sourceFiles(path)
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [path] : []
  })
}

function parse(file: string): ts.SourceFile {
  return ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest)
}

/** file:line of a node, or of the character `skip` characters into it. */
function where(source: ts.SourceFile, node: ts.Node, skip = 0): string {
  const { line } = source.getLineAndCharacterOfPosition(node.getStart(source) + skip)
  return `${relative(root, source.fileName).split(sep).join('/')}:${line + 1}`
}

const SQL_START = /^\s*(SELECT|INSERT|UPDATE|DELETE|WITH|CREATE|ALTER|PRAGMA)\s/i

/** Every string or template literal (in quotes or backticks) that starts like an SQL statement, as file:line. */
function sqlLiterals(source: ts.SourceFile): string[] {
  const found: string[] = []
  const visit = (node: ts.Node): void => {
    // A template with substitutions starts with its head; the other literal kinds carry their whole text.
    const text =
      ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)
        ? node.text
        : ts.isTemplateExpression(node)
          ? node.head.text
          : undefined
    if (text !== undefined && SQL_START.test(text)) {
      // The line of the keyword itself: a backtick statement often starts on the line after its quote.
      const keyword = where(source, node, 1 + text.length - text.trimStart().length)
      found.push(`${keyword}  ${text.trim().split('\n')[0].slice(0, 60)}`)
    }
    ts.forEachChild(node, visit)
  }
  visit(source)
  return found
}

/** Every module a file imports or re-exports (static or dynamic), with where. */
function imports(source: ts.SourceFile): Array<{ specifier: string; at: string }> {
  const found: Array<{ specifier: string; at: string }> = []
  const visit = (node: ts.Node): void => {
    const specifier =
      ts.isImportDeclaration(node) || ts.isExportDeclaration(node)
        ? node.moduleSpecifier
        : ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword
          ? node.arguments[0]
          : undefined
    if (specifier && ts.isStringLiteral(specifier)) found.push({ specifier: specifier.text, at: where(source, node) })
    ts.forEachChild(node, visit)
  }
  visit(source)
  return found
}

const isRoutesFile = (path: string) => /(^|-)routes(\.ts)?$/.test(basename(path))

describe('server layout', () => {
  it('keeps SQL in store.ts files, store/ folders and db/ only', () => {
    const db = join(serverSrc, 'db') + sep
    const isStore = (file: string) => basename(file) === 'store.ts' || basename(dirname(file)) === 'store'
    const offenders = sourceFiles(serverSrc)
      .filter((file) => !isStore(file) && !file.startsWith(db))
      .flatMap((file) => sqlLiterals(parse(file)))
    expect(offenders, `SQL outside store.ts, store/ and db/:\n${offenders.join('\n')}`).toEqual([])
  })

  it("never lets a line's routes import another line's routes", () => {
    const lines = readdirSync(serverSrc, { withFileTypes: true })
      .filter((e) => e.isDirectory())
      .map((e) => join(serverSrc, e.name))
    const offenders = lines
      .flatMap((dir) =>
        readdirSync(dir)
          .filter((name) => name.endsWith('.ts') && !name.endsWith('.test.ts') && isRoutesFile(name))
          .map((name) => join(dir, name)),
      )
      .flatMap((file) =>
        imports(parse(file))
          .filter(
            ({ specifier }) =>
              specifier.startsWith('.') &&
              isRoutesFile(specifier) &&
              dirname(resolve(dirname(file), specifier)) !== dirname(file),
          )
          .map(({ specifier, at }) => `${at}  imports ${specifier}`),
      )
    expect(offenders, `routes importing another line's routes:\n${offenders.join('\n')}`).toEqual([])
  })

  it('has no server/src/app or server/src/domain any more', () => {
    expect(['app', 'domain'].filter((name) => existsSync(join(serverSrc, name)))).toEqual([])
  })
})

describe("a station's hall is fixed at its enrolment (issue 23 points 4 and 5)", () => {
  // A shift is its station's hall's (float, currency, arqueo) and, on PostgreSQL, every movement into it and its close
  // lock the station's hall (cashdesk/shifts.ts). That holds because no statement moves an enrolled device to another
  // hall: a station of another hall is a new enrolment, with its own shifts.
  it('never updates device_credentials.hall_id', () => {
    const moves = sourceFiles(serverSrc)
      .filter((f) => /UPDATE\s+device_credentials\s+SET[^'`"]*\bhall_id\b/i.test(readFileSync(f, 'utf8')))
      .map((f) => relative(root, f))
    expect(moves).toEqual([])
  })
})

describe('one door for a card sale (GEN-1, GEN-18, BNG-15, BNG-40, BNG-93)', () => {
  const files = sourceFiles(serverSrc).map((f) => ({
    file: relative(root, f).split(sep).join('/'),
    text: readFileSync(f, 'utf8'),
  }))

  it('sells cards without admission (bingo.sell) only in the demo seed and the CLI demo game', () => {
    const callers = files.filter((f) => /\bbingo\.sell\(/.test(f.text)).map((f) => f.file)
    expect(callers.sort()).toEqual(['server/src/cli/demo-game.ts', 'server/src/demo.ts'])
    // The demo seed is reached from start-up only, never from a route.
    expect(
      files
        .filter((f) => /from '\.{1,2}\/demo\.ts'/.test(f.text))
        .map((f) => f.file)
        .sort(),
    ).toEqual(['server/src/cli/demo-game.ts', 'server/src/main.ts'])
  })

  it('admits every purchase (admitPurchaseWithin) before each sale in a transaction (bingo.sellWithin)', () => {
    const unadmitted: string[] = []
    for (const f of files) {
      const sells = [...f.text.matchAll(/\bbingo\.sellWithin\(/g)].map((m) => m.index!)
      const admits = [...f.text.matchAll(/\bbingo\.admitPurchaseWithin\(/g)].map((m) => m.index!)
      // Each sale has its own admission before it and after the previous sale.
      let previous = -1
      for (const at of sells) {
        if (!admits.some((a) => a > previous && a < at))
          unadmitted.push(`${f.file}:${f.text.slice(0, at).split('\n').length}`)
        previous = at
      }
    }
    expect(unadmitted).toEqual([])
    expect(files.filter((f) => /\bbingo\.sellWithin\(/.test(f.text)).map((f) => f.file)).toEqual([
      'server/src/cashdesk/paid-sales.ts',
    ])
  })
})

describe('one door for a prize payout (issue 23 point 2, BNG-71, BNG-85)', () => {
  const files = sourceFiles(serverSrc).map((f) => ({
    file: relative(root, f).split(sep).join('/'),
    text: readFileSync(f, 'utf8'),
  }))

  it("marks a line or bingo prize paid only in the cash desk's store", () => {
    const writers = files
      .filter((f) => /UPDATE\s+prizes\s+SET[^'`"]*\bstatus\s*=\s*'paid'/i.test(f.text))
      .map((f) => f.file)
    expect(writers).toEqual(['server/src/cashdesk/store.ts'])
  })

  it('settles a bonus prize only from a cash-desk payout (bonus.settleWithin, in its transaction)', () => {
    const writers = files
      .filter((f) => /UPDATE\s+bonus_prizes\s+SET[^'`"]*\bstatus\s*=\s*'paid'/i.test(f.text))
      .map((f) => f.file)
    expect(writers).toEqual(['server/src/bingo/store/bonus.ts'])
    expect(
      files
        .filter((f) => /\bmarkBonusPrizePaid\(/.test(f.text))
        .map((f) => f.file)
        .sort(),
    ).toEqual(['server/src/bingo/bonus-service.ts', 'server/src/bingo/store/bonus.ts'])
    const callers = files.filter((f) => /\.settleWithin\(/.test(f.text) && /bonus/.test(f.text)).map((f) => f.file)
    expect(callers.filter((f) => !f.startsWith('server/src/cashdesk/'))).toEqual([])
    expect(callers).toContain('server/src/cashdesk/payouts.ts')
  })
})

describe('import graph (scripts/import-graph.ts, issue 25 point 5)', () => {
  const graph = importGraph(root)

  it('reads the whole tree and resolves its imports (an empty graph would pass the checks below)', () => {
    expect(graph.files.length).toBeGreaterThan(300)
    expect(graph.edges.length).toBeGreaterThan(1000)
    // A known edge in each direction of the layering.
    expect(graph.edges).toContainEqual(
      expect.objectContaining({ from: 'server/src/lotto/payouts.ts', to: 'server/src/draws/lifecycle.ts' }),
    )
    expect(graph.edges).toContainEqual(
      expect.objectContaining({ from: 'kiosk/src/kiosk/main.tsx', to: 'web/credentials.ts' }),
    )
  })

  it('names the imports that break the layering', () => {
    expect(layerRule('server/src/shared/profile.ts', 'server/src/bingo/card.ts')).toBe('shared/ imports a higher layer')
    expect(layerRule('hardware/src/rng/x.ts', 'server/src/equipment/statistics.ts')).toBe(
      'hardware/ imports a higher layer',
    )
    expect(layerRule('server/src/lotto/payouts.ts', 'server/src/cashdesk/payouts.ts')).toBe(
      'a product line imports cashdesk/',
    )
    expect(layerRule('server/src/bingo/service.ts', 'server/src/http/context.ts')).toBe(
      "a product line's use cases import http/",
    )
    expect(layerRule('server/src/lottery/rules.ts', 'server/src/lotto/plan.ts')).toBe(
      'a product line imports another product line',
    )
    expect(layerRule('server/src/draws/lifecycle.ts', 'server/src/lotto/store.ts')).toBe(
      'draws/ imports a product line',
    )
    // Allowed: a line on the draw lifecycle, a line's routes on http/, anything on shared/.
    expect(layerRule('server/src/lottery/payouts.ts', 'server/src/draws/store.ts')).toBeNull()
    expect(layerRule('server/src/bingo/routes.ts', 'server/src/http/context.ts')).toBeNull()
    expect(layerRule('server/src/bingo/service.ts', 'server/src/shared/clock.ts')).toBeNull()
  })

  it('has no import from a lower layer to a higher one', () => {
    const found = graph.violations.map((v) => `${v.from} -> ${v.to}  (${v.rule})`)
    expect(found, `imports against the layering:\n${found.join('\n')}`).toEqual([])
  })

  it('has no import cycle', () => {
    const found = graph.cycles.map((c) => c.join(' <-> '))
    expect(found, `import cycles:\n${found.join('\n')}`).toEqual([])
  })
})
