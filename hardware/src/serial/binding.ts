/**
 * The shape of a `serialport` binding (`@serialport/bindings-interface`), declared here because that package's
 * typings cannot be resolved under its `exports` map. Only what our in-memory binding implements.
 */
export interface SerialOpenOptions {
  path: string
  baudRate: number
  [option: string]: unknown
}

export interface SerialPortBinding {
  readonly openOptions: SerialOpenOptions
  readonly isOpen: boolean
  close(): Promise<void>
  /** Resolves with at least one byte; rejects with `{ canceled: true }` once the port is closed. */
  read(buffer: Buffer, offset: number, length: number): Promise<{ buffer: Buffer; bytesRead: number }>
  write(buffer: Buffer): Promise<void>
  update(options: { baudRate: number }): Promise<void>
  set(options: Record<string, boolean | undefined>): Promise<void>
  get(): Promise<{ cts: boolean; dsr: boolean; dcd: boolean }>
  getBaudRate(): Promise<{ baudRate: number }>
  flush(): Promise<void>
  drain(): Promise<void>
}

export interface SerialBinding {
  list(): Promise<Array<{ path: string; manufacturer?: string }>>
  open(options: SerialOpenOptions): Promise<SerialPortBinding>
}
