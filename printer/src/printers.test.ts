import { randomBytes } from 'node:crypto'
import { copyFileSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { createSealer, sealingKeyFromBytes } from '../../server/src/shared/sealing.ts'
import { createFilePrinter, openPrintFile } from './printers.ts'
import { voucherTicket } from './ticket-layout.ts'

/** Issue 24 point 2: the file printer keeps no readable bearer code; the sealing key opens what it kept. */
describe('file printer, sealed', () => {
  const dir = mkdtempSync(join(tmpdir(), 'bolillo-prints-'))
  afterAll(() => rmSync(dir, { recursive: true, force: true }))
  const sealer = createSealer(sealingKeyFromBytes(randomBytes(32)))
  const code = `BLL1.V.v_test1.${'A'.repeat(85)}w`
  const doc = voucherTicket({
    code,
    shortCode: '7KQM-2XRD-9HFA',
    voucherId: 'v_test1',
    hallName: 'Sala',
    amountCents: 5000,
    currency: 'BOB',
    issuedAt: '2026-01-01T12:00:00Z',
    expiresAt: '2026-01-31T12:00:00Z',
    station: 'caja-1',
    origin: 'cashier',
    minimumAge: 18,
    authorisationRef: null,
  })

  it('writes the job and its PDF sealed: neither the code nor the short code is readable, and the key opens both', async () => {
    const printed = await createFilePrinter(dir, '80mm', sealer).print([doc], 'voucher-v_test1')
    expect(printed.files.map((f) => f.split('.').slice(-2).join('.'))).toEqual(['escpos.sealed', 'pdf.sealed'])
    for (const f of readdirSync(dir)) {
      const raw = readFileSync(join(dir, f))
      for (const secret of [code, code.split('.')[3], '7KQM-2XRD-9HFA', '7KQM2XRD9HFA'])
        expect(raw.includes(Buffer.from(secret)), `${f}: ${secret}`).toBe(false)
    }
    const job = openPrintFile(sealer, printed.files[0])
    expect(job.includes(Buffer.from('7KQM-2XRD-9HFA'))).toBe(true)
    expect(openPrintFile(sealer, printed.files[1]).subarray(0, 5).toString()).toBe('%PDF-')
  })

  it('does not open under another key, nor a sealed file renamed to pass for another job', async () => {
    const printed = await createFilePrinter(dir, '80mm', sealer).print([doc], 'voucher-v_test2')
    expect(() => openPrintFile(createSealer(sealingKeyFromBytes(randomBytes(32))), printed.files[0])).toThrow(
      /sealed under key/,
    )
    const renamed = join(dir, 'other-job.escpos.sealed')
    copyFileSync(printed.files[0], renamed)
    expect(() => openPrintFile(sealer, renamed)).toThrow(/does not authenticate/)
  })
})
