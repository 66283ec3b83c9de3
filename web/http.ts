/**
 * The one request function every screen's API uses (same origin unless `base` says otherwise). Errors arrive as
 * `{ error: { code, message, detail, details } }` (STYLE.md §4) and become an `ApiError`, so screens branch on
 * `code`. The screen's language goes out as Accept-Language so the server answers in it. The caller is either a
 * person logged in (`Authorization: Bearer <token>`) or an enrolled device (`Authorization: Device <id>.<secret>`).
 */
import type { Lang } from './i18n.ts'

export class ApiError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly status: number,
    readonly detail?: string,
    readonly details?: unknown,
  ) {
    super(message)
    this.name = 'ApiError'
  }
}

export interface RequestOptions {
  /** The screen's language now (it may change while the screen runs). */
  lang: () => Lang
  /** '' (the default) for same origin; an absolute URL otherwise. */
  base?: string
  /** The session token of the person logged in, or null when nobody is. Wins over `device`. */
  token?: () => string | null
  /** The enrolled device's credential `<id>.<secret>` (kept by credentials.ts), or null. */
  device?: string | null
}

/** Another person's credential typed on this screen to authorise one request (issue 14 point 7). */
export interface SecondPerson {
  username: string
  password: string
}

/** The X-Bolillo-Second-Person header value: base64 of the UTF-8 bytes of "username:password". */
export function secondPersonHeader(person: SecondPerson): string {
  const bytes = new TextEncoder().encode(`${person.username}:${person.password}`)
  let binary = ''
  for (const b of bytes) binary += String.fromCharCode(b)
  return btoa(binary)
}

export interface CallOptions {
  /** A person who holds the permission the caller lacks authorises this one request with their own credential. */
  secondPerson?: SecondPerson
}

export interface ApiRequest {
  <T>(method: string, path: string, body?: unknown, call?: CallOptions): Promise<T>
  /**
   * A binary answer (a PDF): a plain link cannot carry the Authorization header. With `body` it is a POST of that
   * JSON (a document that records something when made, such as a print run of lottery tickets).
   */
  blob(path: string, body?: unknown): Promise<Blob>
}

type ErrorBody = { error?: { code?: string; message?: string; detail?: string; details?: unknown } }

const texts = {
  network: { es: 'Sin conexión con el servidor.', en: 'No connection to the server.' },
  badResponse: { es: 'Respuesta inesperada del servidor.', en: 'Unexpected answer from the server.' },
} as const

export function createRequest(options: RequestOptions): ApiRequest {
  const base = options.base ?? ''
  const lang = (): Lang => (options.lang() === 'en' ? 'en' : 'es')
  function headers(json: boolean): Record<string, string> {
    const h: Record<string, string> = { 'accept-language': lang() }
    if (json) h['content-type'] = 'application/json'
    const token = options.token?.()
    if (token) h.authorization = `Bearer ${token}`
    else if (options.device) h.authorization = `Device ${options.device}`
    return h
  }
  async function send(path: string, init: RequestInit): Promise<Response> {
    try {
      return await fetch(base + path, init)
    } catch (err) {
      throw new ApiError('NETWORK', texts.network[lang()], 0, err instanceof Error ? err.message : String(err))
    }
  }
  async function request<T>(method: string, path: string, body?: unknown, call: CallOptions = {}): Promise<T> {
    const h = headers(true)
    if (call.secondPerson) h['x-bolillo-second-person'] = secondPersonHeader(call.secondPerson)
    const res = await send(path, { method, headers: h, body: body === undefined ? undefined : JSON.stringify(body) })
    const raw = await res.text()
    let parsed: unknown
    let isJson = true
    try {
      parsed = JSON.parse(raw)
    } catch {
      isJson = false
    }
    if (isJson && parsed && typeof parsed === 'object') {
      const e = (parsed as ErrorBody).error
      if (e) throw new ApiError(e.code ?? 'ERROR', e.message ?? 'Error', res.status, e.detail, e.details)
    }
    // A rejected bingo claim is a 422 with a result body, not an error: the caller reads `ok` and `reason`.
    const isResult = isJson && !!parsed && typeof parsed === 'object' && 'ok' in parsed
    if (!res.ok && !isResult) throw new ApiError(`HTTP_${res.status}`, res.statusText, res.status)
    if (!isJson) throw new ApiError('BAD_RESPONSE', texts.badResponse[lang()], res.status, raw.slice(0, 200))
    return parsed as T
  }
  async function blob(path: string, body?: unknown): Promise<Blob> {
    const res = await send(
      path,
      body === undefined
        ? { headers: headers(false) }
        : { method: 'POST', headers: headers(true), body: JSON.stringify(body) },
    )
    if (!res.ok) {
      const e = ((await res.json().catch(() => null)) as ErrorBody | null)?.error
      throw new ApiError(
        e?.code ?? `HTTP_${res.status}`,
        e?.message ?? res.statusText,
        res.status,
        e?.detail,
        e?.details,
      )
    }
    return res.blob()
  }
  return Object.assign(request, { blob })
}
