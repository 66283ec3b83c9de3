/**
 * The printable prize register (libro de registro de premios otorgados, §7.13: INS-5, LNS-25) of the lotto, the
 * numbered lotteries and raffles, and the instant games: the same entries as their JSON registers, one line per
 * prize paid with the player's names, document and a signature box, on the operator profile's wall clock.
 */
import { z } from 'zod'
import { forReader, pdf, needs, param as p, type App } from './context.ts'
import type { Services } from '../services.ts'
import { DomainError } from '../shared/errors.ts'
import { getProfile } from '../shared/profile.ts'
import { parseFractionCodeId } from '../lottery/context.ts'
import type { GamePrizeRegisterRow } from '../../../printer/src/game-prize-register-pdf.ts'

type Prize = { name?: string; code?: string; category?: string; amountCents?: number }
const prizeText = (prizes: Prize[], goods: string[]) =>
  [...prizes.map((x) => x.name ?? x.category ?? x.code ?? ''), ...goods].filter(Boolean).join(' + ')

/** A lottery fraction's id as the paper shows it (number, series, fraction), never its tag. */
function lotteryTicket(id: string): string {
  const f = parseFractionCodeId(id)
  if (f) return `${String(f.number).padStart(2, '0')} serie ${f.series} fracción ${f.fraction}`
  return id.includes('-') ? `N.º ${id.slice(id.indexOf('-') + 1)}` : id
}

export function registerPrizeRegisterRoutes(app: App, services: Services): void {
  const timeZone = () => getProfile(services.config.profileId)?.timeZone
  const render = async (product: string, extract: string, rows: GamePrizeRegisterRow[]) => {
    const { renderGamePrizeRegisterPdf } = await import('../../../printer/src/game-prize-register-pdf.ts')
    return renderGamePrizeRegisterPdf({ product, extract, rows, timeZone: timeZone() })
  }
  const drawQuery = z.object({ drawId: z.string().min(1).max(80).optional() })
  // Bad input is a 400 with its field, never a 500 (the fuzz test sends every shape).
  const drawIdOf = (q: Record<string, string | undefined>) => {
    const r = drawQuery.safeParse({ drawId: q.drawId || undefined })
    if (!r.success) throw new DomainError('VALIDATION_FAILED', 'drawId is 1..80 characters', { field: 'drawId' })
    return r.data.drawId
  }

  // LNS-25: the lotto's book, by the same readers as its JSON register.
  app.get('/api/lotto/prize-register.pdf', needs('report.read'), async (c) => {
    const drawId = drawIdOf(c.req.query())
    const entries = await services.lotto.prizeRegister(drawId)
    const rows = entries.map((e) => ({
      paidAt: String(e.paidAt),
      game: `${e.gameCode} sorteo N.º ${e.drawNumber}`,
      ticket: String(e.ticketNumber),
      prize: prizeText(e.prizes as Prize[], e.goods as string[]),
      amountCents: e.amountCents,
      currency: String(e.currency),
      payeeName: e.payee.name == null ? null : String(e.payee.name),
      payeeDocument: e.payee.document == null ? null : String(e.payee.document),
    }))
    return pdf(
      c,
      await render('Lotto (números seleccionados)', drawId ?? '', forReader(c, rows)),
      'registro-premios-lotto.pdf',
    )
  })
  // LOT-25 / INS-5: numbered lotteries and raffles.
  app.get('/api/lottery/prize-register.pdf', needs('report.read'), async (c) => {
    const drawId = drawIdOf(c.req.query())
    const entries = await services.lottery.prizeRegister(drawId)
    const rows = entries.map((e) => ({
      paidAt: String(e.paidAt),
      game: `${e.product === 'raffle' ? 'Rifa' : 'Lotería'} sorteo N.º ${e.drawNumber}`,
      ticket: lotteryTicket(String(e.ticketNumber)),
      prize: prizeText(e.prizes as Prize[], e.goods as string[]),
      amountCents: e.amountCents,
      currency: String(e.currency),
      payeeName: e.payee.name == null ? null : String(e.payee.name),
      payeeDocument: e.payee.document == null ? null : String(e.payee.document),
    }))
    return pdf(c, await render('Lotería y rifas', drawId ?? '', forReader(c, rows)), 'registro-premios-loteria.pdf')
  })
  // INS-5: an instant game's book (prizes only; refunds are not prizes).
  app.get('/api/instant/games/:gameNo/prize-register.pdf', needs('minutes.read'), async (c) => {
    const parsed = z.coerce
      .number()
      .int()
      .min(1)
      .max(999_999)
      .safeParse(p(c, 'gameNo').trim() || undefined)
    if (!parsed.success)
      throw new DomainError('VALIDATION_FAILED', 'game number must be 1..999999', { field: 'gameNo' })
    const gameNo = parsed.data
    const reg = await services.instant.prizeRegister(gameNo)
    const rows = reg.entries
      .filter((e) => e.kind === 'prize')
      .map((e) => ({
        paidAt: String(e.paidAt),
        game: `Juego N.º ${reg.gameNo} ${reg.name}`,
        ticket: String(e.serial),
        prize: `Premio de categoría ${e.tier}`,
        amountCents: e.amountCents,
        currency: reg.currency,
        payeeName: e.payee?.name == null ? null : String(e.payee.name),
        payeeDocument: e.payee?.document == null ? null : String(e.payee.document),
      }))
    return pdf(
      c,
      await render('Lotería instantánea', `juego ${gameNo}`, forReader(c, rows)),
      `registro-premios-instantanea-${gameNo}.pdf`,
    )
  })
}
