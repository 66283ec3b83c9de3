import { execFileSync } from 'node:child_process'
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { api, startTestServer } from '../helpers/server.ts'
import { hallWithGameOnSale, type HallSetup } from '../helpers/cashdesk.ts'

/**
 * Issue 18, over real HTTP with authentication on:
 * - BNG-72 / GEN-21: a hall's complaints book: a player's complaint recorded by the staff member logged in (never a
 *   name from the body), numbered within the hall, answered once by the management, read by the inspector who
 *   cannot write in it, and printed with the session's minutes; 004 IV.3: the minutes count the complaints pending.
 * - BNG-76: the manual auxiliary book's range ("system failure from game N, resumed at game M") in the minutes.
 * Every route sits under /api/halls/:hallId, behind the hall guard.
 */
const PASSWORD = 'correct horse battery'
const OUT = join('test-output', 'complaints')

describe('complaints book and manual-book markers (issue 18, auth on)', () => {
  let server: Awaited<ReturnType<typeof startTestServer>>
  let hall: HallSetup
  let other: HallSetup
  const auth = new Map<string, string>()
  const call = (who: string, method: string, path: string, body?: unknown) =>
    api(server.url, method, path, body, { authorization: auth.get(who)!, 'accept-language': 'es' })

  beforeAll(async () => {
    server = await startTestServer({ auth: 'on' })
    hall = await hallWithGameOnSale(server.services, { name: 'Sala Illimani' })
    other = await hallWithGameOnSale(server.services, { name: 'Sala Sajama' })
    const people = [
      ['jefa', 'Marta Quispe', 'director', '*'],
      ['sala', 'Pedro Condori', 'hall_manager', [hall.hallId]],
      ['mesa', 'Luis Mamani', 'floor_manager', [hall.hallId]],
      ['cajera', 'Rosa Vargas', 'cashier', [hall.hallId]],
      ['inspector', 'Carmen Flores', 'inspector', '*'],
      ['ajena', 'Eva Mendoza', 'floor_manager', [other.hallId]],
    ] as const
    for (const [username, displayName, role, halls] of people) {
      await server.services.auth.createUser({ username, displayName, role, password: PASSWORD, halls })
      auth.set(username, `Bearer ${(await server.services.auth.login(username, PASSWORD)).token}`)
    }
    mkdirSync(OUT, { recursive: true })
  })
  afterAll(async () => server?.cleanup())

  const complaint = {
    playerName: 'Juana Flores Mamani',
    playerDocument: '3344556 LP',
    text: 'El locutor cantó el 68 pero la pantalla mostró el 86 en la partida 1.',
  }

  it('BNG-72 / GEN-21: staff record a numbered complaint as themselves; the inspector reads the book and cannot write in it', async () => {
    const first = await call('mesa', 'POST', `/api/halls/${hall.hallId}/complaints`, {
      ...complaint,
      sessionId: hall.sessionId,
      gameNo: 1,
    })
    expect(first.status).toBe(201)
    expect(first.body).toMatchObject({
      number: 1,
      sessionId: hall.sessionId,
      gameNo: 1,
      status: 'pending',
      recordedBy: { name: 'Luis Mamani', role: 'floor_manager' },
      answer: null,
    })
    // A name sent in the body is refused, not trusted: the writer is the person logged in.
    expect(
      (
        await call('cajera', 'POST', `/api/halls/${hall.hallId}/complaints`, {
          ...complaint,
          recordedBy: 'Otra Persona',
        })
      ).status,
    ).toBe(400)
    const second = await call('cajera', 'POST', `/api/halls/${hall.hallId}/complaints`, {
      playerName: 'Pedro Ticona',
      text: 'No me dejaron entrar con mi acompañante a la sala.',
    })
    expect(second.body).toMatchObject({
      number: 2,
      sessionId: null,
      recordedBy: { name: 'Rosa Vargas', role: 'cashier' },
    })
    // Numbered per hall: the other hall's book starts at 1.
    expect((await call('ajena', 'POST', `/api/halls/${other.hallId}/complaints`, complaint)).body.number).toBe(1)
    expect(
      (await call('mesa', 'POST', `/api/halls/${hall.hallId}/complaints`, { ...complaint, text: 'corto' })).status,
    ).toBe(400)

    const denied = await call('inspector', 'POST', `/api/halls/${hall.hallId}/complaints`, complaint)
    expect(denied.status).toBe(403)
    const book = await call('inspector', 'GET', `/api/halls/${hall.hallId}/complaints`)
    expect(book.status).toBe(200)
    expect(book.body.complaints.map((c: any) => c.number)).toEqual([1, 2])
    expect(book.body.complaints[0].player).toEqual({
      name: 'Juana Flores Mamani',
      document: '3344556 LP',
      contact: null,
    })
    // The hall guard: someone of another hall neither reads nor writes this hall's book, nor names its session.
    expect((await call('ajena', 'GET', `/api/halls/${hall.hallId}/complaints`)).body.error.code).toBe('WRONG_HALL')
    expect(
      (
        await call('ajena', 'POST', `/api/halls/${other.hallId}/complaints`, {
          ...complaint,
          sessionId: hall.sessionId,
        })
      ).body.error.code,
    ).toBe('WRONG_HALL')
    // The player's document stays in the book, not in the journal (which cannot forget).
    const journal = (await call('jefa', 'GET', '/api/journal?limit=2000')).body.records as Array<{
      type: string
      payload: any
    }>
    const rec = journal.find(
      (r) => r.type === 'complaint.recorded' && r.payload.number === 1 && r.payload.hallId === hall.hallId,
    )!
    expect(rec.payload).toMatchObject({ rule: 'BNG-72', by: { name: 'Luis Mamani' } })
    expect(JSON.stringify(rec.payload)).not.toContain('3344556')
  })

  it('BNG-72: the management answers once; a floor manager or the inspector cannot answer', async () => {
    const body = { answer: 'Revisado el registro de bolas: se cantó el 68, que prevalece; la pantalla se corrigió.' }
    expect((await call('mesa', 'POST', `/api/halls/${hall.hallId}/complaints/1/answer`, body)).status).toBe(403)
    expect((await call('inspector', 'POST', `/api/halls/${hall.hallId}/complaints/1/answer`, body)).status).toBe(403)
    const answered = await call('sala', 'POST', `/api/halls/${hall.hallId}/complaints/1/answer`, body)
    expect(answered.status).toBe(200)
    expect(answered.body).toMatchObject({
      status: 'answered',
      answer: { text: body.answer, by: { name: 'Pedro Condori', role: 'hall_manager' } },
    })
    const again = await call('jefa', 'POST', `/api/halls/${hall.hallId}/complaints/1/answer`, body)
    expect(again.status).toBe(409)
    expect(again.body.error.code).toBe('COMPLAINT_ANSWERED')
    expect((await call('jefa', 'POST', `/api/halls/${hall.hallId}/complaints/99/answer`, body)).status).toBe(404)
    expect(
      (await call('inspector', 'GET', `/api/halls/${hall.hallId}/complaints?status=pending`)).body.complaints.map(
        (c: any) => c.number,
      ),
    ).toEqual([2])
  })

  it('BNG-76: the manual-book range is recorded by staff with its folios, refused when M is not after N, and listed for the inspector', async () => {
    const marker = { fromGame: 2, resumedAtGame: 4, reason: 'Caída del servidor de sala', folios: 'folios 12 a 14' }
    expect(
      (await call('cajera', 'POST', `/api/halls/${hall.hallId}/sessions/${hall.sessionId}/manual-book`, marker)).status,
    ).toBe(403)
    expect(
      (await call('inspector', 'POST', `/api/halls/${hall.hallId}/sessions/${hall.sessionId}/manual-book`, marker))
        .status,
    ).toBe(403)
    const bad = await call('mesa', 'POST', `/api/halls/${hall.hallId}/sessions/${hall.sessionId}/manual-book`, {
      ...marker,
      resumedAtGame: 2,
    })
    expect(bad.status).toBe(400)
    expect(bad.body.error.details.problems[0]).toMatchObject({ field: 'resumedAtGame', rule: 'BNG-76' })
    expect(
      (
        await call('mesa', 'POST', `/api/halls/${hall.hallId}/sessions/${hall.sessionId}/manual-book`, {
          ...marker,
          folios: '',
        })
      ).status,
    ).toBe(400)
    expect(
      (await call('ajena', 'POST', `/api/halls/${hall.hallId}/sessions/${hall.sessionId}/manual-book`, marker)).body
        .error.code,
    ).toBe('WRONG_HALL')
    const ok = await call('mesa', 'POST', `/api/halls/${hall.hallId}/sessions/${hall.sessionId}/manual-book`, marker)
    expect(ok.status).toBe(201)
    expect(ok.body).toMatchObject({
      fromGame: 2,
      resumedAtGame: 4,
      games: { from: 2, to: 3 },
      recordedBy: { name: 'Luis Mamani' },
    })
    const list = await call('inspector', 'GET', `/api/halls/${hall.hallId}/manual-book`)
    expect(list.body.entries).toEqual([
      expect.objectContaining({ sessionId: hall.sessionId, fromGame: 2, resumedAtGame: 4, folios: 'folios 12 a 14' }),
    ])
  })

  it('BNG-72 / BNG-76 / 004 IV.3: the session minutes carry the complaints with their answers, the pending count and the manual-book range, in JSON and in the PDF', async () => {
    await call('mesa', 'POST', `/api/halls/${hall.hallId}/complaints`, {
      ...complaint,
      text: 'Reclamo por el pago del premio de línea de la partida 1.',
      sessionId: hall.sessionId,
      gameNo: 1,
    })
    const m = (await call('inspector', 'GET', `/api/sessions/${hall.sessionId}/minutes`)).body
    expect(m.complaints.map((c: any) => [c.number, c.gameNo, c.answer === null])).toEqual([
      [1, 1, false],
      [3, 1, true],
    ])
    expect(m.complaints[0]).toMatchObject({ recordedBy: 'Luis Mamani', answeredBy: 'Pedro Condori' })
    expect(m.pendingComplaints).toBe(1)
    expect(m.manualBook).toEqual([
      expect.objectContaining({ fromGame: 2, resumedAtGame: 4, folios: 'folios 12 a 14', recordedBy: 'Luis Mamani' }),
    ])
    // The complaint about no session is in the book, not in these minutes.
    expect(m.complaints.some((c: any) => c.number === 2)).toBe(false)
    const res = await fetch(`${server.url}/api/sessions/${hall.sessionId}/minutes.pdf`, {
      headers: { authorization: auth.get('inspector')!, 'accept-language': 'es' },
    })
    expect(res.status).toBe(200)
    const file = join(OUT, 'acta-reclamos.pdf')
    writeFileSync(file, Buffer.from(await res.arrayBuffer()))
    let text = ''
    try {
      text = execFileSync('pdftotext', ['-layout', file, '-'], { encoding: 'utf8' })
    } catch {
      return // pdftotext is not installed here: the JSON above is the check
    }
    expect(text).toContain('LIBRO DE RECLAMOS U OBSERVACIONES')
    expect(text).toContain('LIBRO AUXILIAR MANUAL')
    expect(text).toContain('Avería del sistema desde la partida 2; se')
    expect(text).toContain('Pendiente de respuesta')
    expect(text).toMatch(/1 reclamo\(s\) pendiente\(s\) de resolución/)
  })
})
