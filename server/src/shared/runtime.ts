/** Which JavaScript runtime runs the server: Node, or Bun (which also sets `process.versions.node`). */
export type Runtime = 'node' | 'bun'

export const runtime: Runtime =
  typeof (globalThis as { Bun?: unknown }).Bun !== 'undefined' || process.versions.bun !== undefined ? 'bun' : 'node'
