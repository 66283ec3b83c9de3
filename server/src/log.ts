export interface Logger {
  debug(msg: string, extra?: unknown): void
  info(msg: string, extra?: unknown): void
  warn(msg: string, extra?: unknown): void
  error(msg: string, extra?: unknown): void
}

const order = { debug: 0, info: 1, warn: 2, error: 3 } as const

/** One-line JSON logs on stderr. Errors are logged in full here and never sent to clients. */
export function createLogger(level: keyof typeof order = 'info'): Logger {
  const at = (l: keyof typeof order) => (msg: string, extra?: unknown) => {
    if (order[l] < order[level]) return
    const detail = extra instanceof Error ? { error: extra.message, stack: extra.stack } : extra
    process.stderr.write(
      JSON.stringify({ t: new Date().toISOString(), level: l, msg, ...(detail !== undefined ? { detail } : {}) }) +
        '\n',
    )
  }
  return { debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') }
}
