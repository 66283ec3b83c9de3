import { execFileSync } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { countPixels, rasterPage, solidPng } from '../../test/helpers/png.ts'
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

  // CFG-39, LOT-15 (9), (11): the uploaded logo and signature are drawn; without them the sheet says so in words.
  it('the sheet draws the AJ logo and the MAE signature images, or says they are not on record', async () => {
    const red = (p: number[]) => p[0] > 200 && p[1] < 60 && p[2] < 60
    const blue = (p: number[]) => p[2] > 180 && p[0] < 60 && p[1] < 60
    // Slot 0 of the front page, 72 dpi, y down: the logo box and the signature box above the MAE's line.
    const logoBox = { x0: 48 + 200, y0: 48 + 136, x1: 48 + 234, y1: 48 + 160 }
    const signatureBox = { x0: 48 + 10, y0: 48 + 153, x1: 48 + 180, y1: 48 + 167 }
    const withArt = await renderLotteryTicketSheetPdf([ticket()], {
      ajLogo: solidPng(60, 40, [230, 0, 0]),
      maeSignature: solidPng(120, 30, [0, 0, 200]),
    })
    writeFileSync(join(dir, 'with-art.pdf'), withArt)
    const a = rasterPage(join(dir, 'with-art.pdf'), join(dir, 'with-art'))
    // 34 x 24 box, the 3:2 logo fits as 34 x 22.7: most of the box is red, and nothing red outside it.
    expect(countPixels(a, logoBox, red)).toBeGreaterThan(600)
    const around = { x0: logoBox.x0 - 1, y0: logoBox.y0 - 1, x1: logoBox.x1 + 1, y1: logoBox.y1 + 1 }
    expect(countPixels(a, { x0: 0, y0: 0, x1: a.width, y1: a.height }, red)).toBe(countPixels(a, around, red))
    // The 4:1 signature fits the 170 x 14 box as 56 x 14.
    expect(countPixels(a, signatureBox, blue)).toBeGreaterThan(600)
    const textWith = pdfText(withArt, 'with-art-text')
    expect(textWith).not.toContain('no registrada')

    const without = await renderLotteryTicketSheetPdf([ticket()])
    writeFileSync(join(dir, 'without-art.pdf'), without)
    const b = rasterPage(join(dir, 'without-art.pdf'), join(dir, 'without-art'))
    expect(countPixels(b, logoBox, red)).toBe(0)
    expect(countPixels(b, signatureBox, blue)).toBe(0)
    const text = pdfText(without, 'without-art-text')
    expect(text).toContain('Logo AJ: imagen no registrada')
    expect(text).toContain('Firma de la MAE: imagen no registrada')
    // No stand-in box with the letters "AJ" pretending to be the logo.
    expect(text).not.toMatch(/(^| )AJ( |$)/)
    if (process.env.BOLILLO_KEEP_SHEETS) {
      execFileSync('cp', [join(dir, 'with-art.png'), join(dir, 'without-art.png'), process.env.BOLILLO_KEEP_SHEETS])
    }
  })
})
