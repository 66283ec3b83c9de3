import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { DomainError } from './errors.ts'
import { QUICKNET, QUICKNET_KEY, createDemoBeacon, demoSecretKeyFrom, type BeaconKey } from './beacon.ts'
import { createBeaconRelayClient, type RefusedBeacon, type RelayFailure } from './beacon-relay.ts'

const VECTOR = {
  round: 657413,
  signature: 'b713718a38ae728dfd477991af2822e08d2f305e47718cef9f7848ce4050e7be41076862b98fad56e91a6b85b89cd97b',
  randomness: 'fc1873a13f3545aeade8401532ef5519920652eee6b0d2b19ca12643b87b3587',
}
const demo = createDemoBeacon(demoSecretKeyFrom(new Uint8Array(48).fill(2)))
const forger = createDemoBeacon(demoSecretKeyFrom(new Uint8Array(48).fill(8)))
// Recorded rounds per chain hash; the demo chain also has rounds the vector does not cover.
const recorded = new Map<string, Map<number, object>>([
  [QUICKNET.chainHash, new Map([[VECTOR.round, VECTOR]])],
  [demo.key.chainHash, new Map([100, 101].map((r) => [r, demo.sign(r)]))],
])
const forged = new Map([
  [demo.key.chainHash, new Map([100, 101].map((r) => [r, forger.sign(r)]))],
  [QUICKNET.chainHash, new Map([[VECTOR.round, forger.sign(VECTOR.round)]])],
])

type Behaviour = 'good' | 'wrong-signature' | 'late' | 'down'
const servers: Server[] = []
const requests: string[] = []

async function relay(behaviour: Behaviour): Promise<string> {
  const server = createServer((req, res) => {
    requests.push(`${behaviour} ${req.url}`)
    const m = /^\/([0-9a-f]{64})\/public\/(\d+)$/.exec(req.url ?? '')
    const table = behaviour === 'wrong-signature' ? forged : recorded
    const body = m ? table.get(m[1])?.get(Number(m[2])) : undefined
    if (behaviour === 'down') {
      res.writeHead(503).end('unavailable')
      return
    }
    if (!body) {
      res.writeHead(404).end('{}')
      return
    }
    const send = () => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body))
    // Far longer than any loaded test host could take for the rest: waiting for it would show.
    if (behaviour === 'late') setTimeout(send, 45_000).unref()
    else send()
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  servers.push(server)
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`
}

let urls: Record<Behaviour, string>
beforeAll(async () => {
  urls = {
    good: await relay('good'),
    'wrong-signature': await relay('wrong-signature'),
    late: await relay('late'),
    down: await relay('down'),
  }
})
afterAll(() => {
  for (const s of servers) {
    s.closeAllConnections()
    s.close()
  }
})

function client(key: BeaconKey, order: Behaviour[]) {
  const refused: RefusedBeacon[] = []
  const failures: RelayFailure[] = []
  const c = createBeaconRelayClient({
    relays: order.map((b) => urls[b]),
    key,
    timeoutMs: 300,
    onRefused: (r) => refused.push(r),
    onRelayFailure: (f) => failures.push(f),
  })
  return { c, refused, failures }
}

describe('beacon relay client over real HTTP', () => {
  it('skips a late relay and a forged one, uses the good one, and reports the forged signature', async () => {
    const { c, refused, failures } = client(QUICKNET_KEY, ['late', 'wrong-signature', 'good'])
    const started = performance.now()
    const r = await c.fetchRound(VECTOR.round)
    expect(performance.now() - started).toBeLessThan(30_000)
    expect(r).toEqual({ ...VECTOR, source: urls.good, demo: false })
    expect(refused).toHaveLength(1)
    expect(refused[0]).toMatchObject({
      source: 'relay',
      relay: urls['wrong-signature'],
      round: VECTOR.round,
      reason: expect.stringContaining('does not verify'),
    })
    expect(refused[0].signature).toBe(forger.sign(VECTOR.round).signature)
    expect(failures).toEqual([{ relay: urls.late, round: VECTOR.round, reason: 'no answer within 300 ms' }])
    expect(requests).toContain(`good /${QUICKNET.chainHash}/public/${VECTOR.round}`)
  })

  it('serves demo chain rounds verified against the demo key', async () => {
    const { c, refused, failures } = client(demo.key, ['down', 'wrong-signature', 'good'])
    const r = await c.fetchRound(101)
    expect(r).toEqual({ ...demo.sign(101), source: urls.good, demo: true })
    expect(refused.map((x) => x.relay)).toEqual([urls['wrong-signature']])
    expect(failures.map((f) => f.reason)).toEqual(['HTTP 503'])
  })

  it('fails plainly when no relay gives a valid value, and never returns an unverified one', async () => {
    const { c, refused } = client(demo.key, ['wrong-signature', 'late', 'down'])
    await expect(c.fetchRound(100)).rejects.toMatchObject({ code: 'DEVICE_UNAVAILABLE' })
    expect(refused).toHaveLength(1)
    // A round the relays do not have (404) is a failure, not a refusal.
    const other = client(demo.key, ['good'])
    await expect(other.c.fetchRound(999)).rejects.toBeInstanceOf(DomainError)
    expect(other.failures[0].reason).toBe('HTTP 404')
  })

  it('checks a signature typed in by staff the same way', () => {
    const { c, refused } = client(QUICKNET_KEY, [])
    const typed = VECTOR.signature.toUpperCase().replace(/(.{16})/g, '$1 ')
    expect(c.acceptTyped(VECTOR.round, typed)).toEqual({ ...VECTOR, source: 'staff', demo: false })
    expect(() => c.acceptTyped(VECTOR.round + 1, VECTOR.signature)).toThrow(/refused/)
    expect(refused).toEqual([expect.objectContaining({ source: 'staff', round: VECTOR.round + 1 })])
  })
})
