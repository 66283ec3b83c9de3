import { describe, expect, it } from 'vitest'
import { oncePerRequest, runAs } from './request-context.ts'

const actor = () => ({ kind: 'device', id: 'k1', name: 'Kiosco 1', role: 'kiosk' })

// Issue 23 point 5: a voucher's hall and buyer are read once per request, by the hall guard and the sale alike.
describe('oncePerRequest', () => {
  it('shares one read between the steps of one request, and not with another request', async () => {
    let reads = 0
    const read = async () => ({ hallId: `h${++reads}` })
    const first = await runAs(actor, async () => [await oncePerRequest('v:1', read), await oncePerRequest('v:1', read)])
    expect(first).toEqual([{ hallId: 'h1' }, { hallId: 'h1' }])
    expect(await runAs(actor, () => oncePerRequest('v:1', read))).toEqual({ hallId: 'h2' })
    // Outside a request every call reads.
    expect(await oncePerRequest('v:1', read)).toEqual({ hallId: 'h3' })
    expect(await oncePerRequest('v:1', read)).toEqual({ hallId: 'h4' })
  })

  it('keeps neither a row not found nor a failed read: a row written later in the request is read afresh', async () => {
    let row: { hallId: string } | undefined
    let fail = true
    const answers = await runAs(actor, async () => {
      const missing = await oncePerRequest('v:2', async () => row)
      row = { hallId: 'h1' }
      const found = await oncePerRequest('v:2', async () => row)
      const failed = await oncePerRequest('v:3', async () => {
        if (fail) throw new Error('busy')
        return row
      }).catch((e: Error) => e.message)
      fail = false
      const again = await oncePerRequest('v:3', async () => row)
      return { missing, found, failed, again }
    })
    expect(answers).toEqual({ missing: undefined, found: { hallId: 'h1' }, failed: 'busy', again: { hallId: 'h1' } })
  })
})
