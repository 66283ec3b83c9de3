/** The time every use case reads: the system clock in production, an injected one in tests and replays. */
export interface Clock {
  now(): Date
}
/** A source of random bytes for draw seeds and codes (OS CSPRNG, a health-tested hardware source, or a test's). */
export interface EntropySource {
  randomBytes(n: number): Uint8Array
  name: string
}
