/**
 * The independent checker's side of issue 28 point 3: a lotto draw's close-of-sales file as it was published before
 * the draw (`close-of-sales-<drawId>.json` in an export, SCHEMA.md `bolillo-close-of-sales-v1`) is verified on its
 * own (signature, digest, the two files' SHA-256, the plays read again from the file), then the settlement is held
 * against it: the draw's record names the same files, and its plays are the published plays, receipt by receipt.
 */
import { createHash, verify, type KeyObject } from 'node:crypto'
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { canonical } from './canonical.ts'

type Diff = (es: string, en: string) => void
interface Doc {
  body: {
    drawId: string
    plays: Array<{ receipt: string; boards: number[][] }>
    excluded: unknown[]
    receipts: number
    participationSha256: string
    excludedSha256: string
    participationFile: string
    excludedFile: string
  }
  digest: string
  signature: string
}

const sha256 = (t: string) => createHash('sha256').update(t, 'utf8').digest('hex')

/** The published files of an export, verified; returns them by draw id. */
export function readCloseOfSales(dir: string, key: KeyObject | null, diff: Diff): Map<string, Doc> {
  const out = new Map<string, Doc>()
  for (const name of existsSync(dir) ? readdirSync(dir).sort() : []) {
    if (!/^close-of-sales-.+\.json$/.test(name)) continue
    let doc: Doc
    try {
      doc = JSON.parse(readFileSync(join(dir, name), 'utf8')) as Doc
    } catch {
      diff(`fichero de cierre ${name}: ilegible`, `close-of-sales file ${name}: unreadable`)
      continue
    }
    const id = `fichero de cierre del sorteo ${doc.body?.drawId}`
    const en = `close-of-sales file of draw ${doc.body?.drawId}`
    if (sha256(canonical(doc.body)) !== doc.digest)
      diff(`${id}: su resumen no corresponde a su contenido (alterado)`, `${en}: digest does not match its content`)
    let signed = false
    try {
      signed = !!key && verify(null, Buffer.from(doc.digest, 'hex'), key, Buffer.from(doc.signature, 'base64'))
    } catch {
      signed = false
    }
    if (key && !signed) diff(`${id}: la firma no es del operador`, `${en}: signature is not the operator's`)
    if (sha256(doc.body.participationFile) !== doc.body.participationSha256)
      diff(`${id}: el archivo de participación no da su SHA-256`, `${en}: participation file SHA-256 differs`)
    if (sha256(doc.body.excludedFile) !== doc.body.excludedSha256)
      diff(`${id}: el archivo de excluidas no da su SHA-256`, `${en}: excluded file SHA-256 differs`)
    // The plays read again from the file itself (`comprobante;jugada;numeros;automatica`).
    const fromFile = new Map<string, number[][]>()
    for (const line of doc.body.participationFile.split('\n')) {
      if (!line || line.startsWith('#') || line.startsWith('comprobante;')) continue
      const [receipt, , numbers] = line.split(';')
      fromFile.set(receipt, [...(fromFile.get(receipt) ?? []), numbers.split(' ').map(Number)])
    }
    const listed = new Map(doc.body.plays.map((p) => [p.receipt, p.boards]))
    if (canonical([...fromFile]) !== canonical([...listed]))
      diff(`${id}: sus jugadas no son las del archivo de participación`, `${en}: plays differ from its file`)
    out.set(doc.body.drawId, doc)
  }
  return out
}

/** A settled lotto draw against the file published before its draw. */
export function checkAgainstCloseOfSales(
  r: { record: string; data: any },
  plays: Array<{ data: any }>,
  doc: Doc | undefined,
  diff: Diff,
): void {
  const d = r.data
  const id = `registro ${r.record} (sorteo ${d.drawId})`
  const en = `record ${r.record}`
  if (!doc) {
    diff(`${id}: no hay fichero de cierre publicado antes del sorteo`, `${en}: no close-of-sales file published`)
    return
  }
  if (d.closeOfSales?.participationSha256 !== doc.body.participationSha256)
    diff(
      `${id}: el archivo de participación del registro no es el publicado al cierre`,
      `${en}: participation file differs from the published one`,
    )
  if (d.closeOfSales?.excludedSha256 !== doc.body.excludedSha256)
    diff(
      `${id}: el archivo de excluidas del registro no es el publicado al cierre`,
      `${en}: excluded file differs from the published one`,
    )
  if (Number(d.closeOfSales?.receipts) !== doc.body.receipts)
    diff(
      `${id}: ${d.closeOfSales?.receipts} comprobantes, el fichero publicado tiene ${doc.body.receipts}`,
      `${en}: receipts differ from the published file`,
    )
  const published = new Map(doc.body.plays.map((p) => [p.receipt, canonical(p.boards)]))
  const settled = new Map<string, string>()
  for (const part of plays) for (const p of part.data.plays ?? []) settled.set(String(p.receipt), canonical(p.boards))
  for (const [receipt, boards] of settled) {
    if (!published.has(receipt))
      diff(
        `${id}: el comprobante ${receipt} no estaba en el fichero de cierre publicado`,
        `${en}: receipt ${receipt} not in the published file`,
      )
    else if (published.get(receipt) !== boards)
      diff(
        `${id}: el comprobante ${receipt} tiene otras jugadas que en el fichero de cierre publicado`,
        `${en}: receipt ${receipt} differs from the published file`,
      )
  }
  for (const receipt of published.keys())
    if (!settled.has(receipt))
      diff(
        `${id}: el comprobante ${receipt} del fichero de cierre falta en la liquidación`,
        `${en}: receipt ${receipt} of the published file missing from the settlement`,
      )
}
