/**
 * Reads a multipart/x-mixed-replace JPEG stream (the server's relay of the central's camera, RNG-30) with fetch, so
 * that the display's credential goes in the Authorization header and never in an address. Each frame becomes an
 * object URL for an <img>; the previous one is released. `onFrame(null)` says the image is lost: the stream ended or
 * failed, or no frame came for `lostAfterMs`; it is asked again every `retryMs` until `stop()`.
 */
export interface MjpegWatch {
  stop(): void
}

const HEADER_END = [13, 10, 13, 10]

function indexOf(buf: Uint8Array, needle: readonly number[] | Uint8Array, from = 0): number {
  outer: for (let i = from; i <= buf.length - needle.length; i++) {
    for (let j = 0; j < needle.length; j++) if (buf[i + j] !== needle[j]) continue outer
    return i
  }
  return -1
}

/** Frames of a multipart body whose parts carry Content-Length (as the server's relay always sends them). */
export function createFrameReader(boundary: string): (chunk: Uint8Array) => Uint8Array[] {
  const delimiter = new TextEncoder().encode(`--${boundary}`)
  let buf = new Uint8Array(0)
  return (chunk) => {
    const joined = new Uint8Array(buf.length + chunk.length)
    joined.set(buf)
    joined.set(chunk, buf.length)
    buf = joined
    const frames: Uint8Array[] = []
    for (;;) {
      const start = indexOf(buf, delimiter)
      if (start < 0) break
      const headEnd = indexOf(buf, HEADER_END, start)
      if (headEnd < 0) break
      const head = new TextDecoder('latin1').decode(buf.subarray(start, headEnd))
      const length = /content-length:\s*(\d+)/i.exec(head)
      if (!length) {
        buf = buf.subarray(headEnd + 4)
        continue
      }
      const end = headEnd + 4 + Number(length[1])
      if (buf.length < end) break
      frames.push(buf.slice(headEnd + 4, end))
      buf = buf.subarray(end)
    }
    return frames
  }
}

export function watchMjpeg(
  url: string,
  options: {
    headers: Record<string, string>
    lostAfterMs?: number
    retryMs?: number
    /** The server's answer when it gives no stream (404: the hall has no registered camera). */
    onRefused?: (status: number) => void
  },
  onFrame: (objectUrl: string | null) => void,
): MjpegWatch {
  const lostAfterMs = options.lostAfterMs ?? 3000
  const retryMs = options.retryMs ?? 2000
  let stopped = false
  let current: string | null = null
  let abort: AbortController | null = null
  let watchdog: ReturnType<typeof setTimeout> | undefined
  let retry: ReturnType<typeof setTimeout> | undefined

  const lost = () => {
    if (current) URL.revokeObjectURL(current)
    current = null
    if (!stopped) onFrame(null)
  }
  const arm = () => {
    clearTimeout(watchdog)
    watchdog = setTimeout(() => {
      lost()
      abort?.abort()
    }, lostAfterMs)
  }

  async function once(): Promise<void> {
    abort = new AbortController()
    arm()
    try {
      const res = await fetch(url, { headers: options.headers, signal: abort.signal, cache: 'no-store' })
      const boundary = /boundary="?([^";]+)"?/i.exec(res.headers.get('content-type') ?? '')?.[1]
      if (!res.ok) options.onRefused?.(res.status)
      if (!res.ok || !res.body || !boundary) return
      const read = createFrameReader(boundary)
      const reader = res.body.getReader()
      for (;;) {
        const { done, value } = await reader.read()
        if (done || stopped) break
        for (const frame of read(value)) {
          arm()
          const next = URL.createObjectURL(new Blob([frame as BlobPart], { type: 'image/jpeg' }))
          const previous = current
          current = next
          onFrame(next)
          if (previous) URL.revokeObjectURL(previous)
        }
      }
    } catch {
      // network failure or our own abort: the image is lost, asked again below
    } finally {
      clearTimeout(watchdog)
    }
  }

  const loop = async () => {
    if (stopped) return
    await once()
    lost()
    if (!stopped) retry = setTimeout(loop, retryMs)
  }
  void loop()

  return {
    stop() {
      stopped = true
      clearTimeout(watchdog)
      clearTimeout(retry)
      abort?.abort()
      if (current) URL.revokeObjectURL(current)
      current = null
    },
  }
}
