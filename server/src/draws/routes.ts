/**
 * The HTTP routes of the draw lifecycle that lotto (under /api/lotto) and numbered lotteries and raffles (under
 * /api/lottery) share: the same paths, permissions, bodies and answers under each prefix, from the participation
 * file to the prize register. Each line registers its own plans, sales, close of sales (lotto's early close takes a
 * reason, LNS-13) and manual values (lotto's balls, a lottery's numbers); cashier payouts go through the cash desk
 * (POST /api/tickets/pay, issue 23).
 */
import { z } from 'zod'
import { forReader, pdf, csv, actorOf, body, needs, param as p, type App } from '../http/context.ts'
import type { Actor } from '../shared/lottery-draw-v2.ts'

/** What a line's service offers of the shared lifecycle (lotto/service.ts, lottery/service.ts). */
export interface DrawLifecycleRoutes {
  participationFile(drawId: string): Promise<Buffer>
  recordBeacon(drawId: string, signature: string, actor: Actor): Promise<object>
  drawRng(drawId: string, actor: Actor): Promise<object>
  postpone(
    drawId: string,
    input: { drawAt: string; authorisationRef: string; reason: string },
    actor: Actor,
  ): Promise<object>
  cancel(
    drawId: string,
    input: { kind: 'withdrawal' | 'renunciation'; authorisationRef: string; reason: string },
    actor: Actor,
  ): Promise<object>
  recordIncident(drawId: string, note: string): Promise<void>
  settle(drawId: string): Promise<object>
  getProof(drawId: string): Promise<object>
  extracto(drawId: string): Promise<object>
  extractoPdf(drawId: string): Promise<Uint8Array>
  acta(drawId: string): Promise<object>
  actaPdf(drawId: string): Promise<Uint8Array>
  validate(code: string): Promise<object>
  unclaimed(drawId: string): Promise<object>
  disposeUnclaimed(drawId: string, input: { destination: string; reference: string }): Promise<object>
  prizeRegister(drawId?: string): Promise<object[]>
}

const text = (max = 500) => z.string().min(1).max(max)
const iso = z.string().min(16).max(40)

export function registerDrawLifecycleRoutes(
  app: App,
  prefix: '/api/lotto' | '/api/lottery',
  line: DrawLifecycleRoutes,
): void {
  const draw = `${prefix}/draws/:drawId`

  // LNS-14: the participation file published at the close of sales.
  app.get(`${draw}/participation`, needs('game.read'), async (c) =>
    csv(c, await line.participationFile(p(c, 'drawId')), `participacion-${p(c, 'drawId')}.csv`),
  )
  // Beacon round R typed in by staff from any public source (whoever may run the draw).
  app.post(`${draw}/beacon`, needs('lottery.draw'), async (c) => {
    const b = await body(c, z.object({ signature: z.string().min(1).max(400) }).strict())
    return c.json(await line.recordBeacon(p(c, 'drawId'), b.signature, actorOf(c)))
  })
  app.post(`${draw}/draw`, needs('lottery.draw'), async (c) => c.json(await line.drawRng(p(c, 'drawId'), actorOf(c))))
  // LOT-21 / LNS-22: an authorised postponement (director), with the AJ authorisation reference and the reason.
  app.post(`${draw}/postpone`, needs('lottery.admin'), async (c) => {
    const b = await body(c, z.object({ drawAt: iso, authorisationRef: text(120), reason: text(500) }).strict())
    return c.json(await line.postpone(p(c, 'drawId'), b, actorOf(c)))
  })
  // LOT-21 / LNS-22: an authorised withdrawal or renunciation (director): the draw is cancelled, what the public
  // holds is refunded at a cash desk.
  app.post(`${draw}/cancel`, needs('lottery.admin'), async (c) => {
    const b = await body(
      c,
      z
        .object({ kind: z.enum(['withdrawal', 'renunciation']), authorisationRef: text(120), reason: text(500) })
        .strict(),
    )
    return c.json(await line.cancel(p(c, 'drawId'), b, actorOf(c)))
  })
  app.post(`${draw}/incidents`, needs('lottery.draw'), async (c) => {
    const b = await body(c, z.object({ note: text(2000) }).strict())
    await line.recordIncident(p(c, 'drawId'), b.note)
    return c.json({ ok: true }, 201)
  })
  app.post(`${draw}/settle`, needs('lottery.draw'), async (c) => c.json(await line.settle(p(c, 'drawId'))))
  app.get(`${draw}/proof`, needs('game.read'), async (c) => c.json(await line.getProof(p(c, 'drawId'))))
  // LNS-10, LOT-17: the extracto; LNS-17: the minutes.
  app.get(`${draw}/extracto`, needs('game.read'), async (c) => c.json(await line.extracto(p(c, 'drawId'))))
  app.get(`${draw}/extracto.pdf`, needs('game.read'), async (c) =>
    pdf(c, await line.extractoPdf(p(c, 'drawId')), `extracto-${p(c, 'drawId')}.pdf`),
  )
  app.get(`${draw}/acta`, needs('minutes.read'), async (c) => c.json(await line.acta(p(c, 'drawId'))))
  app.get(`${draw}/acta.pdf`, needs('minutes.read'), async (c) =>
    pdf(c, await line.actaPdf(p(c, 'drawId')), `acta-${p(c, 'drawId')}.pdf`),
  )

  // ---- cashier, claim period, prize register
  app.post(`${prefix}/tickets/validate`, needs('ticket.validate'), async (c) => {
    const b = await body(c, z.object({ code: z.string().min(1).max(400) }).strict())
    return c.json(await line.validate(b.code))
  })
  // Issue 23: a prize is paid only at the cash desk, POST /api/tickets/pay (out of the payer's open shift).
  app.get(`${draw}/unclaimed`, needs('report.read'), async (c) =>
    c.json(forReader(c, await line.unclaimed(p(c, 'drawId')))),
  )
  app.post(`${draw}/unclaimed/dispose`, needs('lottery.admin'), async (c) => {
    const b = await body(c, z.object({ destination: text(500), reference: text(200) }).strict())
    return c.json(await line.disposeUnclaimed(p(c, 'drawId'), b), 201)
  })
  app.get(`${prefix}/prize-register`, needs('report.read'), async (c) =>
    // Issue 24 point 2: the payee's document to the roles that read identities (aml.identity), masked for the rest.
    c.json({ entries: forReader(c, await line.prizeRegister(c.req.query('drawId') || undefined)) }),
  )
}
