/**
 * HTTP routes of bingo: halls, master sets, series, sessions and their minutes, games (sales, draw, claims,
 * incidents, proof, cards) and prizes. Errors are DomainErrors, turned into localized JSON by http/app.ts.
 */
import { z } from 'zod'
import { actorOf, body, needs, param, principalOf, type App } from '../http/context.ts'
import { fieldReasons, pickLang } from '../http/messages.ts'
import { DomainError } from '../shared/errors.ts'
import type { Services } from '../services.ts'

const id = z.string().min(1).max(64).regex(/^[A-Za-z0-9_-]+$/)
const recount = z.object({ ballsCounted: z.number().int().min(0).max(1000), confirmedBy: z.string().min(1).max(120) }).strict()

export function registerBingoRoutes(app: App, services: Services) {
  const { bingo } = services
  // ---- halls, series, sessions
  app.get('/api/halls', needs('hall.read'), async (c) => c.json({ halls: await bingo.listHalls() }))
  app.get('/api/halls/:hallId', needs('hall.read'), async (c) => c.json(await bingo.getHallOverview(param(c, 'hallId'))))
  app.post('/api/halls', needs('hall.admin'), async (c) => {
    const b = await body(c, z.object({ name: z.string().min(1).max(120), profileId: z.enum(['BO-2025', 'ES-CB-2010']), playingPositions: z.number().int().min(1).max(100_000), id: id.optional(), timeZone: z.string().min(1).max(64).optional() }).strict())
    return c.json(await bingo.createHall(b), 201)
  })
  // Issue 17: the hall's wall clock (IANA zone); null goes back to the profile's.
  app.put('/api/halls/:hallId/time-zone', needs('hall.admin'), async (c) => {
    const b = await body(c, z.object({ timeZone: z.string().min(1).max(64).nullable() }).strict())
    return c.json(await bingo.setHallTimeZone({ hallId: param(c, 'hallId'), timeZone: b.timeZone, by: actorOf(c) }))
  })
  app.post('/api/master-sets', needs('hall.admin'), async (c) => {
    const b = await body(c, z.object({ count: z.number().int().min(1).max(1_000_000), seed: z.string().min(1).max(128).optional() }).strict())
    return c.json(await bingo.createMasterSet(b), 201)
  })
  app.post('/api/halls/:hallId/series', needs('hall.admin'), async (c) => {
    const b = await body(c, z.object({ code: z.string().min(1).max(8), masterSetId: id, faceValueCents: z.number().int().positive().max(100_000_000) }).strict())
    return c.json(await bingo.createSeries({ hallId: param(c, 'hallId'), ...b }), 201)
  })
  app.post('/api/halls/:hallId/sessions', needs('session.open'), async (c) => {
    const b = await body(c, z.object({ recount }).strict())
    return c.json(await bingo.openSession({ hallId: param(c, 'hallId'), recount: b.recount }), 201)
  })
  app.get('/api/sessions/:sessionId', needs('minutes.read'), async (c) => c.json(await services.minutes.sessionSummary(param(c, 'sessionId'))))
  app.post('/api/sessions/:sessionId/last-game', needs('session.close'), async (c) => {
    await bingo.announceLastGame(param(c, 'sessionId'))
    return c.json({ ok: true })
  })
  app.post('/api/sessions/:sessionId/close', needs('session.close'), async (c) => {
    const b = await body(c, z.object({ recount: recount.optional() }).strict())
    await bingo.closeSession(param(c, 'sessionId'), b.recount ?? null)
    return c.json({ ok: true })
  })
  app.get('/api/sessions/:sessionId/minutes', needs('minutes.read'), async (c) => c.json(await services.minutes.sessionMinutes(param(c, 'sessionId'))))
  app.get('/api/sessions/:sessionId/minutes.pdf', needs('minutes.read'), async (c) => {
    const pdf = await services.minutes.sessionMinutesPdf(param(c, 'sessionId'), pickLang(c.req.header('accept-language')))
    return c.body(pdf as unknown as ArrayBuffer, 200, { 'content-type': 'application/pdf', 'content-disposition': `inline; filename="acta-${param(c, 'sessionId')}.pdf"` })
  })

  // ---- games
  app.post('/api/sessions/:sessionId/games', needs('game.announce'), async (c) => {
    const b = await body(c, z.object({ seriesIds: z.array(id).min(1).max(2), drawSource: z.enum(['rng', 'manual', 'blower']).optional(), deviceId: z.string().min(1).max(40).optional() }).strict())
    return c.json(await bingo.announceGame({ sessionId: param(c, 'sessionId'), ...b }), 201)
  })
  app.get('/api/games/:gameId', needs('game.read'), async (c) => c.json(await bingo.getGameState(param(c, 'gameId'))))
  app.get('/api/games/:gameId/state', needs('game.read'), async (c) => c.json(await bingo.getGameState(param(c, 'gameId'))))
  app.post('/api/games/:gameId/series', needs('game.announce'), async (c) => {
    const b = await body(c, z.object({ seriesId: id }).strict())
    return c.json(await bingo.addSeries(param(c, 'gameId'), b.seriesId))
  })
  app.post('/api/games/:gameId/sales/open', needs('game.sales'), async (c) => c.json(await bingo.openSales(param(c, 'gameId'))))
  app.post('/api/games/:gameId/sales/close', needs('game.sales'), async (c) => {
    const b = await body(c, z.object({ externalEntropy: z.unknown().optional() }).strict())
    // bolillo-draw-v2: no person supplies entropy; an old client that still sends it is told so plainly.
    if (b.externalEntropy !== undefined) {
      throw new DomainError('VALIDATION_FAILED', 'externalEntropy is no longer accepted: the draw uses the public beacon round fixed by the close time', { field: 'externalEntropy', reason: fieldReasons.externalEntropy[pickLang(c.req.header('accept-language'))] })
    }
    return c.json(await bingo.closeSales({ gameId: param(c, 'gameId') }))
  })
  // DESIGN.md bolillo-draw-v2 point 3: round R typed in by staff from any public source, or fetched now from the relays.
  app.post('/api/games/:gameId/beacon', needs('game.draw'), async (c) => {
    const b = await body(c, z.object({ signature: z.string().min(1).max(400).optional() }).strict())
    const who = principalOf(c)
    if (b.signature === undefined) return c.json(await bingo.obtainBeacon(param(c, 'gameId')))
    return c.json(await bingo.acceptTypedBeacon({ gameId: param(c, 'gameId'), signature: b.signature, actor: { kind: who.kind, id: who.id, name: who.name, role: String(who.role) } }))
  })
  app.post('/api/games/:gameId/sales', needs('game.sell'), async (c) => {
    const b = await body(c, z.object({ count: z.number().int().min(1).max(1000), channel: z.string().min(1).max(40).regex(/^[a-z0-9:_-]+$/).default('counter') }).strict())
    const cards = await bingo.sell({ gameId: param(c, 'gameId'), count: b.count, channel: b.channel })
    return c.json({ cards }, 201)
  })
  app.post('/api/games/:gameId/draw', needs('game.draw'), async (c) => c.json(await bingo.drawNext(param(c, 'gameId'))))
  app.post('/api/games/:gameId/balls', needs('game.draw'), async (c) => {
    const b = await body(c, z.object({ ball: z.number().int(), deviceId: z.string().max(64).optional() }).strict())
    return c.json(await bingo.enterBall(param(c, 'gameId'), b.ball, b.deviceId ?? null))
  })
  app.post('/api/games/:gameId/claims', needs('game.claim'), async (c) => {
    const b = await body(c, z.object({ kind: z.enum(['line', 'bingo']), serial: z.string().min(1).max(40) }).strict())
    const r = await bingo.claim({ gameId: param(c, 'gameId'), serial: b.serial, kind: b.kind })
    return c.json(r, r.ok ? 200 : 422)
  })
  app.post('/api/games/:gameId/claims/stop', needs('game.claim'), async (c) => c.json(await bingo.stopForClaim(param(c, 'gameId'))))
  app.post('/api/games/:gameId/claims/resume', needs('game.claim'), async (c) => c.json(await bingo.resumePlay(param(c, 'gameId'))))
  app.post('/api/games/:gameId/window/close', needs('game.window'), async (c) => c.json(await bingo.closeWindow(param(c, 'gameId'))))
  app.post('/api/games/:gameId/incidents', needs('game.incident'), async (c) => {
    const b = await body(c, z.object({
      kind: z.enum(['device-failure-before-first-ball', 'device-failure-after-first-ball', 'ball-irregularity', 'caller-error', 'unresolved-suspension', 'reader-misread']),
      note: z.string().max(2000).optional(), correctedBall: z.number().int().optional(),
      // Issue 15 point 4: an annulment carries its reason and a second person's confirmation.
      reason: z.string().max(500).optional(),
      confirm: z.object({ username: z.string().min(1).max(120), password: z.string().min(1).max(200) }).strict().optional(),
    }).strict())
    const who = principalOf(c)
    const by = { kind: who.kind, id: who.id, name: who.name, role: who.role }
    // The password is checked here, at the door; whether the incident annuls and who may confirm is the use case's.
    const confirmedBy = b.confirm ? await services.auth.confirmPerson(b.confirm.username, b.confirm.password) : undefined
    const annulment = confirmedBy ? { reason: b.reason ?? '', confirmedBy } : undefined
    return c.json(await bingo.declareIncident({ gameId: param(c, 'gameId'), kind: b.kind, note: b.note, correctedBall: b.correctedBall, by, annulment }))
  })
  app.post('/api/games/:gameId/resume', needs('game.incident'), async (c) => c.json(await bingo.resume(param(c, 'gameId'))))
  app.get('/api/games/:gameId/proof', needs('game.read'), async (c) => c.json(await bingo.getProof(param(c, 'gameId'))))
  app.get('/api/games/:gameId/cards/:serial', needs('game.claim'), async (c) => {
    const card = await bingo.getCard(param(c, 'gameId'), param(c, 'serial'))
    if (!card) throw new DomainError('TICKET_NOT_FOUND', 'card not sold in this game')
    return c.json(card)
  })
  app.get('/api/games/:gameId/prizes', needs('game.read'), async (c) => c.json({ prizes: await bingo.listPrizes(param(c, 'gameId')) }))
  app.post('/api/prizes/:prizeId/pay', needs('prize.pay'), async (c) => {
    const b = await body(c, z.object({ paidBy: z.string().min(1).max(120) }).strict())
    return c.json(await bingo.payPrize({ prizeId: param(c, 'prizeId'), paidBy: b.paidBy }))
  })
}
