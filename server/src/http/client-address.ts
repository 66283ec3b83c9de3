/**
 * The client's address for rate limits and refusal records (issue 14 point 4). X-Forwarded-For is believed only
 * when the connection comes from a configured trusted proxy (BOLILLO_TRUSTED_PROXIES); then the client is the
 * right-most address in the header that is not itself a trusted proxy. Anyone else's header is ignored, so
 * rotating it gets a flooder nothing.
 */
export function clientAddress(
  remote: string | undefined,
  forwardedFor: string | undefined,
  trusted: readonly string[],
): string {
  const peer = normalise(remote ?? 'local')
  if (!forwardedFor || !isTrusted(peer, trusted)) return peer
  const hops = forwardedFor
    .split(',')
    .map((s) => normalise(s.trim()))
    .filter(Boolean)
  for (let i = hops.length - 1; i >= 0; i--) if (!isTrusted(hops[i], trusted)) return hops[i]
  return hops[0] ?? peer
}

/** `::ffff:10.0.0.1` (IPv4 seen through an IPv6 socket) is 10.0.0.1. */
function normalise(address: string): string {
  return address.replace(/^::ffff:(\d+\.\d+\.\d+\.\d+)$/i, '$1').toLowerCase()
}

export function isTrusted(address: string, trusted: readonly string[]): boolean {
  return trusted.some((t) => (t.includes('/') ? inCidr(address, t) : normalise(t) === address))
}

function inCidr(address: string, cidr: string): boolean {
  const [base, bitsText] = cidr.split('/')
  const a = ipv4(address)
  const b = ipv4(base)
  const bits = Number(bitsText)
  if (a === null || b === null || !(bits >= 0 && bits <= 32)) return false
  const mask = bits === 0 ? 0 : (~0 << (32 - bits)) >>> 0
  return (a & mask) >>> 0 === (b & mask) >>> 0
}

function ipv4(address: string): number | null {
  const m = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(address)
  if (!m) return null
  const parts = m.slice(1).map(Number)
  if (parts.some((p) => p > 255)) return null
  return ((parts[0] << 24) | (parts[1] << 16) | (parts[2] << 8) | parts[3]) >>> 0
}
