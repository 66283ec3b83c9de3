import { createServer, type IncomingHttpHeaders, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ApiError, createRequest, secondPersonHeader } from './http.ts'

// A real local server: each path answers one way; every request's method, headers and body are kept.
let server: Server
let base: string
const seen: Array<{ method: string; url: string; headers: IncomingHttpHeaders; body: string }> = []

beforeAll(async () => {
  server = createServer((req, res) => {
    let body = ''
    req.on('data', (chunk) => (body += chunk))
    req.on('end', () => {
      seen.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body })
      const json = (status: number, value: unknown) =>
        res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(value))
      switch (req.url) {
        case '/echo':
          return json(200, { method: req.method, body: body ? JSON.parse(body) : null })
        case '/refused':
          return json(409, {
            error: {
              code: 'SALES_CLOSED',
              message: 'Venta cerrada.',
              detail: 'game g1 is running',
              details: { gameId: 'g1' },
            },
          })
        case '/claim':
          return json(422, { ok: false, reason: 'not-a-line' })
        case '/bare-error':
          return res.writeHead(502, 'Bad Gateway', { 'content-type': 'text/html' }).end('<h1>proxy</h1>')
        case '/not-json':
          return res.writeHead(200, { 'content-type': 'text/plain' }).end('hello')
        case '/pdf':
          return res.writeHead(200, { 'content-type': 'application/pdf' }).end('%PDF-1.7')
        case '/pdf-refused':
          return json(403, { error: { code: 'FORBIDDEN', message: 'No.' } })
        default:
          return json(404, { error: { code: 'NOT_FOUND', message: 'Not found' } })
      }
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
})

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())))

function last() {
  return seen[seen.length - 1]
}

async function failure(p: Promise<unknown>): Promise<ApiError> {
  const err = await p.then(
    () => null,
    (e: unknown) => e,
  )
  expect(err).toBeInstanceOf(ApiError)
  return err as ApiError
}

describe('createRequest', () => {
  it('sends a JSON body and returns the parsed answer', async () => {
    const request = createRequest({ lang: () => 'es', base })
    expect(await request('POST', '/echo', { count: 3 })).toEqual({ method: 'POST', body: { count: 3 } })
    expect(last().headers['content-type']).toBe('application/json')
    expect(await request('GET', '/echo')).toEqual({ method: 'GET', body: null })
    expect(last().body).toBe('')
  })

  it('sends the screen language as it is now', async () => {
    let lang: 'es' | 'en' = 'es'
    const request = createRequest({ lang: () => lang, base })
    await request('GET', '/echo')
    expect(last().headers['accept-language']).toBe('es')
    lang = 'en'
    await request('GET', '/echo')
    expect(last().headers['accept-language']).toBe('en')
  })

  it('sends no credential when there is none', async () => {
    await createRequest({ lang: () => 'es', base, device: null, token: () => null })('GET', '/echo')
    expect(last().headers.authorization).toBeUndefined()
  })

  it("sends an enrolled device's credential", async () => {
    await createRequest({ lang: () => 'es', base, device: 'kiosk-1.s3cret' })('GET', '/echo')
    expect(last().headers.authorization).toBe('Device kiosk-1.s3cret')
  })

  it("sends the logged-in person's token, read at each request, before a device credential", async () => {
    let token: string | null = null
    const request = createRequest({ lang: () => 'es', base, token: () => token, device: 'kiosk-1.s3cret' })
    await request('GET', '/echo')
    expect(last().headers.authorization).toBe('Device kiosk-1.s3cret')
    token = 'abc'
    await request('GET', '/echo')
    expect(last().headers.authorization).toBe('Bearer abc')
  })

  it("sends a second person's credential on that one request only, as base64 of UTF-8 username:password (issue 14 point 7)", async () => {
    const request = createRequest({ lang: () => 'es', base, token: () => 'abc' })
    await request('POST', '/echo', {}, { secondPerson: { username: 'marta', password: 'contraseña:ñ' } })
    const header = String(last().headers['x-bolillo-second-person'])
    expect(Buffer.from(header, 'base64').toString('utf8')).toBe('marta:contraseña:ñ')
    expect(header).toBe(secondPersonHeader({ username: 'marta', password: 'contraseña:ñ' }))
    expect(last().headers.authorization).toBe('Bearer abc')
    await request('POST', '/echo', {})
    expect(last().headers['x-bolillo-second-person']).toBeUndefined()
  })

  it('turns an error body into an ApiError with its code, message, detail and details', async () => {
    const err = await failure(createRequest({ lang: () => 'es', base })('POST', '/refused', {}))
    expect(err).toMatchObject({
      code: 'SALES_CLOSED',
      message: 'Venta cerrada.',
      status: 409,
      detail: 'game g1 is running',
      details: { gameId: 'g1' },
    })
  })

  it('returns a result body that comes with a refusal status (a rejected claim)', async () => {
    expect(await createRequest({ lang: () => 'es', base })('POST', '/claim', {})).toEqual({
      ok: false,
      reason: 'not-a-line',
    })
  })

  it('turns a refusal without an error body into HTTP_<status>', async () => {
    const err = await failure(createRequest({ lang: () => 'es', base })('GET', '/bare-error'))
    expect(err).toMatchObject({ code: 'HTTP_502', status: 502, message: 'Bad Gateway' })
  })

  it('turns a success that is not JSON into BAD_RESPONSE', async () => {
    const err = await failure(createRequest({ lang: () => 'en', base })('GET', '/not-json'))
    expect(err).toMatchObject({
      code: 'BAD_RESPONSE',
      status: 200,
      message: 'Unexpected answer from the server.',
      detail: 'hello',
    })
  })

  it('turns a network failure into NETWORK, in the screen language', async () => {
    // A port that was just free: nothing listens there.
    const closed = createServer()
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve))
    const port = (closed.address() as AddressInfo).port
    await new Promise<void>((resolve) => closed.close(() => resolve()))
    const es = await failure(createRequest({ lang: () => 'es', base: `http://127.0.0.1:${port}` })('GET', '/echo'))
    expect(es).toMatchObject({ code: 'NETWORK', status: 0, message: 'Sin conexión con el servidor.' })
    const en = await failure(createRequest({ lang: () => 'en', base: `http://127.0.0.1:${port}` })('GET', '/echo'))
    expect(en).toMatchObject({ code: 'NETWORK', status: 0, message: 'No connection to the server.' })
  })

  it('fetches a binary answer with the credential and maps its error body', async () => {
    const request = createRequest({ lang: () => 'es', base, token: () => 'abc' })
    expect(await (await request.blob('/pdf')).text()).toBe('%PDF-1.7')
    expect(last()).toMatchObject({ method: 'GET', headers: { authorization: 'Bearer abc', 'accept-language': 'es' } })
    expect(last().headers['content-type']).toBeUndefined()
    expect(await failure(request.blob('/pdf-refused'))).toMatchObject({ code: 'FORBIDDEN', status: 403 })
  })
})
