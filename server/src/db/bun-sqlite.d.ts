// The few declarations of Bun's built-in module that sqlite-bun.ts uses (Node's type set has none).
declare module 'bun:sqlite' {
  export class Database {
    constructor(
      filename: string,
      options?: { readonly?: boolean; create?: boolean; readwrite?: boolean; strict?: boolean },
    )
    exec(sql: string): unknown
    prepare(sql: string): {
      all(...params: unknown[]): unknown[]
      get(...params: unknown[]): unknown
      run(...params: unknown[]): { changes: number }
      finalize(): void
    }
    readonly inTransaction: boolean
    close(): void
  }
}
