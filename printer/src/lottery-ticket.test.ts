import { execFileSync } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { lotteryTicketLines, renderLotteryTicketSheetPdf, type LotteryTicketPrint } from './lottery-pdf.ts'

const dir = mkdtempSync(join(tmpdir(), 'bolillo-lottery-ticket-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

/** Extracted text with every run of white space folded to one space. */
function pdfText(bytes: Uint8Array, name: string): string {
  const file = join(dir, `${name}.pdf`)
  writeFileSync(file, bytes)
  return execFileSync('pdftotext', ['-enc', 'UTF-8', file, '-'], { encoding: 'utf8' }).replace(
    /[\s\u00a0\u202f]+/g,
    ' ',
  )
}

const PRIZES = [
  ['Premio Mayor', 50_000_000],
  ['Segundo Premio', 10_000_000],
  ['Tercer Premio', 2_000_000],
  ['Aproximaciones', 500_000],
  ['Reintegro', 2_000],
] as const

function ticket(overrides: Partial<LotteryTicketPrint> = {}): LotteryTicketPrint {
  return {
    code: 'BLL1.T.prueba',
    ticketId: 'T-00042',
    control: '04521-01-03 T1 3FA2 9C01',
    institution: 'Lotería Nacional de Beneficencia y Salubridad',
    lotteryName: 'Lotería de Navidad',
    number: '04521',
    series: 1,
    fraction: 3,
    fractions: 10,
    fractionPriceCents: 2_000,
    ticketPriceCents: 20_000,
    currency: 'BOB',
    drawNumber: 118,
    issue: 'Emisión 2026-1',
    drawAt: '2026-12-22T20:00:00-04:00',
    drawPlace: 'Salón de sorteos, La Paz',
    securityMarks: 'tinta UV, microtexto',
    authority: 'Lic. Ana Quispe',
    legend: 'Actividad Autorizada y Fiscalizada por la Autoridad de Juegos',
    prizes: PRIZES.map(([name, cents]) => ({
      name,
      rule: 'fijo',
      amountPerTicketCents: cents,
      amountPerFractionCents: cents / 10,
    })),
    claimDeadline: '2027-02-22T23:59:59-04:00',
    securityWarnings: ['Verifique el holograma'],
    winningTickets: 120,
    paymentPlace: 'Oficinas centrales',
    regulationUrl: 'https://loteria.example.bo/reglamento',
    authorisationRef: 'AJ/DE/RA/0118/2026',
    territory: null,
    timeZone: 'America/La_Paz',
    ...overrides,
  }
}

describe('the front of a lottery fraction names the amount of every prize (LOT-15 (8))', () => {
  it('the thermal front lists all five prizes, not the first three', () => {
    const front = lotteryTicketLines(ticket()).front.join('\n')
    for (const [name] of PRIZES) expect(front).toContain(`${name}: `)
    expect(front).toMatch(/Reintegro: Bs\.?[\s\u00a0]?20,00 por billete/)
  })

  it("the print shop's sheet front carries every prize name and amount, not the first two", async () => {
    const sheet = pdfText(await renderLotteryTicketSheetPdf([ticket()]), 'sheet')
    // The front page comes first; the back page also lists the structure, so read the front alone.
    const front = sheet.slice(0, sheet.indexOf('REGLAMENTO DEL SORTEO'))
    for (const [name] of PRIZES) expect(front).toContain(name)
    expect(front).toContain('Bs 500.000,00')
    expect(front).toContain('Bs 20,00')
  })
})
