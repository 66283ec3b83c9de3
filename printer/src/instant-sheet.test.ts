import { execFileSync, spawnSync } from 'node:child_process'
import { createHash, generateKeyPairSync } from 'node:crypto'
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import type { PackPrintData } from '../../server/src/instant/service.ts'
import { packPrintData } from '../../server/src/instant/files.ts'
import { groupCode } from '../../server/src/instant/codes.ts'
import { checkDesign, instructionsFor, type InstantDesign } from '../../server/src/instant/design.ts'
import { decodeFace } from '../../server/src/instant/play.ts'
import { encodeTicketCode, TicketKind, verifyTicketCode } from '../../server/src/shared/ticket-code.ts'
import { itfRuns, renderInstantSheets, TICKETS_PER_PAGE } from './instant-sheet.ts'

const has = (tool: string) => spawnSync('sh', ['-c', `command -v ${tool}`]).status === 0
const tools = has('pdftoppm') && has('zbarimg')
// .ci/run installs poppler-utils and zbar-tools: there a missing tool fails the run; elsewhere the test skips.
const run = tools || process.env.CI === 'true' ? it : it.skip

const design: InstantDesign = {
  gameNo: 301,
  name: 'Raspa Fácil',
  currency: 'BOB',
  priceCents: 500,
  ticketCount: 400,
  packSize: 40,
  playStyle: { type: 'match-three', decoyAmountsCents: [100, 300] },
  tiers: [
    { amountCents: 50_000, count: 1 },
    { amountCents: 5000, count: 10 },
    { amountCents: 1000, count: 40 },
    { amountCents: 500, count: 60 },
  ],
  payoutShareBp: { min: 5000, max: 9000 },
  packRules: {
    lowTiers: { maxAmountCents: 1000, minPerPack: 4 },
    topTiers: { minAmountCents: 50_000, maxPerPack: 1, notFirstOrLast: true },
  },
  claimDays: 60,
  salesEndAt: '2099-12-31T23:59:59-04:00',
  back: { issuer: 'Lotería de prueba', paymentPlace: 'cajas autorizadas' },
}

describe('instant print sheet', () => {
  it('encodes the serial digits as Interleaved 2 of 5 (start, 5 bars and 5 spaces per digit pair, stop)', () => {
    expect(() => itfRuns('123')).toThrow()
    expect(itfRuns('12').length).toBe(4 + 10 + 3)
  })

  run(
    `renders a sheet whose inventory and validation codes scan back, and whose back names the game's authorisation (LOT-3) (pdftoppm + zbarimg${tools ? '' : ': not installed, install poppler-utils and zbar-tools'})`,
    async () => {
      expect(
        tools,
        'pdftoppm and zbarimg are required under CI=true (.ci/run installs poppler-utils and zbar-tools)',
      ).toBe(true)
      const { privateKey, publicKey } = generateKeyPairSync('ed25519')
      const c = checkDesign(design)
      const pack = packPrintData(c, createHash('sha256').update('sheet-test-seed').digest()).next()
        .value as PackPrintData
      const tickets = pack.serials.slice(0, TICKETS_PER_PAGE).map((serial, i) => ({
        serial,
        codeText: groupCode(pack.codes[i]),
        face: decodeFace(pack.faces[i]),
        inventoryQr: encodeTicketCode({ kind: TicketKind.instant, id: serial }, privateKey),
        validationQr: encodeTicketCode({ kind: TicketKind.instant, id: pack.codes[i] }, privateKey),
      }))
      const pdf = await renderInstantSheets(
        {
          gameNo: design.gameNo,
          name: design.name,
          currency: design.currency,
          priceCents: design.priceCents,
          playStyle: 'match-three',
          symbolAmountsCents: c.symbolAmountsCents,
          tiers: design.tiers,
          ticketCount: design.ticketCount,
          claimDays: design.claimDays,
          issuer: design.back.issuer,
          paymentPlace: design.back.paymentPlace,
          securityWarnings: 'Nulo si está alterado.',
          instructions: instructionsFor(c),
          authorisationRef: 'AJ-RA-2025-0042',
        },
        tickets,
      )
      const dir = mkdtempSync(join(tmpdir(), 'bolillo-sheet-'))
      try {
        writeFileSync(join(dir, 'sheet.pdf'), pdf)
        execFileSync('pdftoppm', ['-r', '200', '-f', '1', '-l', '1', '-png', join(dir, 'sheet.pdf'), join(dir, 'page')])
        const png = readdirSync(dir).find((f) => f.endsWith('.png'))!
        const out = spawnSync('zbarimg', ['-q', join(dir, png)], { encoding: 'utf8' }).stdout
        const decoded = out
          .trim()
          .split('\n')
          .map((l) => {
            const at = l.indexOf(':')
            return { type: l.slice(0, at), data: l.slice(at + 1) }
          })
        const qr = decoded.filter((d) => d.type === 'QR-Code').map((d) => d.data)
        const itf = decoded.filter((d) => d.type === 'I2/5').map((d) => d.data)
        expect(qr.sort()).toEqual(tickets.flatMap((t) => [t.inventoryQr, t.validationQr]).sort())
        for (const payload of qr) expect(verifyTicketCode(payload, publicKey).kind).toBe(TicketKind.instant)
        expect(itf.sort()).toEqual(tickets.map((t) => t.serial.replace(/-/g, '')).sort())
        // LOT-3 / GEN-5: the back of every ticket names the regulator's authorisation of the game.
        const back = execFileSync('pdftotext', ['-f', '2', '-l', '2', join(dir, 'sheet.pdf'), '-'], {
          encoding: 'utf8',
        })
        expect(back.match(/Juego\s+autorizado:\s+AJ-RA-2025-0042/g)?.length).toBe(tickets.length)
      } finally {
        rmSync(dir, { recursive: true, force: true })
      }
    },
  )
})
