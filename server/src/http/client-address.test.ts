import { describe, expect, it } from 'vitest'
import fc from 'fast-check'
import { clientAddress, isTrusted } from './client-address.ts'

describe('client address (issue 14 point 4)', () => {
  it('ignores X-Forwarded-For from a peer that is not a trusted proxy', () => {
    expect(clientAddress('203.0.113.9', '1.2.3.4', [])).toBe('203.0.113.9')
    expect(clientAddress('203.0.113.9', '1.2.3.4', ['10.0.0.2'])).toBe('203.0.113.9')
  })
  it('believes a trusted proxy, taking the right-most untrusted hop', () => {
    expect(clientAddress('10.0.0.2', '1.2.3.4', ['10.0.0.2'])).toBe('1.2.3.4')
    // The client forged a first hop; the proxy appended the real one.
    expect(clientAddress('10.0.0.2', '6.6.6.6, 198.51.100.7', ['10.0.0.2'])).toBe('198.51.100.7')
    expect(clientAddress('::ffff:10.1.2.3', '198.51.100.7, 10.1.9.9', ['10.1.0.0/16'])).toBe('198.51.100.7')
  })
  it('matches IPv4 CIDR blocks and exact IPv6 addresses', () => {
    expect(isTrusted('10.1.255.1', ['10.1.0.0/16'])).toBe(true)
    expect(isTrusted('10.2.0.1', ['10.1.0.0/16'])).toBe(false)
    expect(isTrusted('::1', ['::1'])).toBe(true)
  })
  it('never lets an untrusted peer choose its address, whatever the header (property)', () => {
    fc.assert(
      fc.property(fc.ipV4(), fc.array(fc.ipV4(), { maxLength: 5 }), (peer, hops) => {
        fc.pre(!peer.startsWith('10.'))
        expect(clientAddress(peer, hops.join(', '), ['10.0.0.0/8'])).toBe(peer)
      }),
    )
  })
})
