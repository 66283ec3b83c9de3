/**
 * The independent checker's recomputation of numbered lotteries, raffles (`lottery.draw`) and instant games
 * (`instant.game`), from SCHEMA.md alone: it shares no code with the server's lottery or instant use cases. The
 * prize rules (exact, approximation, ending, beginning, progression) are written here again from the schema.
 */
import { createHash } from 'node:crypto'

type Diff = (es: string, en: string) => void

interface Range {
  kind: string
  from: number
  to: number
  seriesFrom: number
  seriesTo: number
  afterClose: boolean
  designVersion: number
}
interface Rule {
  type: string
  of?: string
  distance?: number
  digits?: number
  step?: number
}

/** Above this many tickets (numbering x series) the checker does not rebuild a lottery's sales digest D. */
const MAX_TICKETS_FOR_DIGEST = 2_000_000

function byteOrder(a: string, b: string): number {
  return Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'))
}

/** Whether a number wins prize `rule`, given the winning number of each exact prize (SCHEMA.md `lottery.draw`). */
function wins(rule: Rule, code: string, winning: Record<string, number>, n: number, width: number): boolean {
  if (rule.type === 'exact') return winning[code] === n
  const source = winning[String(rule.of)]
  if (source === undefined || source === n) return false
  switch (rule.type) {
    case 'approximation':
      return Math.abs(n - source) <= Number(rule.distance)
    case 'ending':
      return n % 10 ** Number(rule.digits) === source % 10 ** Number(rule.digits)
    case 'beginning': {
      const m = 10 ** (width - Number(rule.digits))
      return Math.floor(n / m) === Math.floor(source / m)
    }
    case 'progression':
      return Math.abs(n - source) % Number(rule.step) === 0
    default:
      return false
  }
}

export function checkLotteryDraw(r: { record: string; data: any }, diff: Diff): void {
  const d = r.data
  const id = `registro ${r.record} (sorteo ${d.drawId})`
  const en = `record ${r.record}`
  const plan = d.plan ?? {}
  const prizes = (plan.prizes ?? []) as Array<{ code: string; rule: Rule | null; amountCents: number }>
  const drawn = ((d.drawn ?? []) as unknown[]).map(Number)
  const ranges = (d.ranges ?? []) as Range[]
  const numbering = plan.numbering ?? { from: 0, to: -1, digits: 1 }
  const raffle = d.product === 'raffle'
  if (d.status === 'cancelled') {
    checkCancelledLotteryDraw(d, plan, raffle, id, en, diff)
    return
  }

  // The winning number of each prize: the values drawn, in order, one per exact prize (raffle: one per prize).
  const exact = raffle ? prizes : prizes.filter((p) => p.rule?.type === 'exact')
  const expectedWinning: Record<string, number> = {}
  exact.forEach((p, i) => {
    if (i < drawn.length) expectedWinning[p.code] = drawn[i]
  })
  for (const p of exact)
    if (Number(d.winning?.[p.code]) !== expectedWinning[p.code])
      diff(
        `${id}: premio ${p.code}: número ganador ${d.winning?.[p.code]}, el sorteo dio ${expectedWinning[p.code]}`,
        `${en}: prize ${p.code} winning number differs from the draw`,
      )

  // Tickets in play at the close: the raffle's sold tickets, or every number and series, less what was taken out
  // of play before the close (a range of an earlier design is back in play once reprinted, LST-1 (a)).
  const outBefore = ranges.filter(
    (x) => !x.afterClose && (x.kind === 'returned' || Number(x.designVersion ?? 1) >= Number(d.designVersion ?? 1)),
  )
  const isOut = (rs: Range[], n: number, s: number) =>
    rs.some((x) => n >= x.from && n <= x.to && s >= x.seriesFrom && s <= x.seriesTo)
  const width = Number(numbering.digits)
  const pad = (n: number) => String(n).padStart(width, '0')
  let inPlay: string[] | null = null
  if (raffle) inPlay = ((d.soldSerials ?? []) as string[]).filter((s) => !isOut(outBefore, Number(s), 1))
  else {
    const total = (Number(numbering.to) - Number(numbering.from) + 1) * Number(plan.series)
    if (total <= MAX_TICKETS_FOR_DIGEST) {
      inPlay = []
      for (let n = Number(numbering.from); n <= Number(numbering.to); n++)
        for (let s = 1; s <= Number(plan.series); s++)
          if (!isOut(outBefore, n, s)) inPlay.push(`${pad(n)}-${String(s).padStart(2, '0')}`)
    }
  }
  if (inPlay) {
    if (inPlay.length !== Number(d.closeOfSales?.ticketsInPlay))
      diff(
        `${id}: ${d.closeOfSales?.ticketsInPlay} billetes en juego al cierre, recalculados ${inPlay.length}`,
        `${en}: tickets in play differ`,
      )
    const digest = createHash('sha256')
      .update([...inPlay].sort(byteOrder).join('\n'))
      .digest('hex')
    if (d.closeOfSales?.salesDigest && digest !== d.closeOfSales.salesDigest)
      diff(
        `${id}: el resumen de ventas D no corresponde a los billetes en juego (recalculado ${digest.slice(0, 12)}…)`,
        `${en}: sales digest differs from the tickets in play`,
      )
  }
  if (raffle) {
    const sales = Number(d.closeOfSales?.ticketsSold) * Number(plan.ticketPriceCents)
    if (sales !== Number(d.closeOfSales?.salesCents))
      diff(
        `${id}: ventas ${d.closeOfSales?.salesCents}, recalculadas ${sales} (${d.closeOfSales?.ticketsSold} boletos x ${plan.ticketPriceCents})`,
        `${en}: raffle sales differ`,
      )
  } else {
    // The fractions sold: distributed to a seller and not returned, at the fraction price.
    const sold = ((d.closeOfSales?.register ?? []) as Array<{ status: string; fractions: number }>)
      .filter((x) => x.status === 'distributed')
      .reduce((s, x) => s + Number(x.fractions), 0)
    const sales = Math.round((sold * Number(plan.ticketPriceCents)) / Math.max(1, Number(plan.fractions)))
    if (sales !== Number(d.closeOfSales?.salesCents))
      diff(
        `${id}: ventas ${d.closeOfSales?.salesCents}, recalculadas ${sales} (${sold} fracciones vendidas)`,
        `${en}: lottery sales differ from the fractions sold`,
      )
  }

  // Each prize's winners: the numbers its rule gives, times the series, less every range out of play (a range
  // reported after the close is not paid either, LST-4); and its liability.
  const soldSet = raffle ? new Set(inPlay ?? []) : null
  let liability = 0
  prizes.forEach((p, i) => {
    const rec = ((d.prizes ?? []) as Array<any>).find((x) => x.code === p.code)
    let numbers = 0
    let tickets = 0
    if (raffle) {
      numbers = i < drawn.length ? 1 : 0
      tickets = i < drawn.length && soldSet!.has(pad(drawn[i])) ? 1 : 0
    } else if (p.rule) {
      for (let n = Number(numbering.from); n <= Number(numbering.to); n++) {
        if (!wins(p.rule, p.code, expectedWinning, n, width)) continue
        numbers++
        for (let s = 1; s <= Number(plan.series); s++) if (!isOut(ranges, n, s)) tickets++
      }
    }
    const amount = tickets * Number(p.amountCents)
    liability += amount
    if (!rec) {
      diff(`${id}: falta el premio ${p.code}`, `${en}: prize ${p.code} missing`)
      return
    }
    if (Number(rec.numbersCount) !== numbers)
      diff(
        `${id}: premio ${p.code}: ${rec.numbersCount} números premiados, recalculados ${numbers}`,
        `${en}: prize ${p.code} winning numbers differ`,
      )
    if (Number(rec.ticketsInPlay) !== tickets)
      diff(
        `${id}: premio ${p.code}: ${rec.ticketsInPlay} billetes ganadores en juego, recalculados ${tickets}`,
        `${en}: prize ${p.code} winners differ`,
      )
    if (Number(rec.liabilityCents) !== amount)
      diff(
        `${id}: premio ${p.code}: importe ${rec.liabilityCents}, recalculado ${amount} (${tickets} x ${p.amountCents})`,
        `${en}: prize ${p.code} amount differs`,
      )
  })
  if (Number(d.liabilityCents) !== liability)
    diff(`${id}: premios ${d.liabilityCents}, recalculados ${liability}`, `${en}: total prizes differ`)
  if (Number(d.paidCents) > liability)
    diff(`${id}: pagado ${d.paidCents}, más que los premios ${liability}`, `${en}: paid more than the prizes`)
  if (d.unclaimed && Number(d.unclaimed.amountCents) > liability - Number(d.paidCents))
    diff(
      `${id}: no reclamado ${d.unclaimed.amountCents}, más que premios menos pagado (${liability - Number(d.paidCents)})`,
      `${en}: unclaimed exceeds prizes less paid`,
    )
}

/**
 * LOT-21: a withdrawn or renounced draw (SCHEMA.md `lottery.draw`, status `cancelled`) draws nothing and pays no
 * prize; it owes the price of every ticket in the public's hands (a raffle's tickets sold, a lottery's fractions
 * distributed and not returned), refunded once each at that price, never more than it owes.
 */
function checkCancelledLotteryDraw(d: any, plan: any, raffle: boolean, id: string, en: string, diff: Diff): void {
  const c = d.cancellation
  if (!c || !String(c.authorisationRef ?? '').trim())
    diff(
      `${id}: sorteo anulado sin la autorización de la AJ (LOT-21)`,
      `${en}: cancelled draw without its authorisation`,
    )
  if (((d.drawn ?? []) as unknown[]).length > 0)
    diff(`${id}: sorteo anulado con números extraídos`, `${en}: cancelled draw with numbers drawn`)
  if (Number(d.liabilityCents ?? 0) !== 0 || Number(d.paidCents ?? 0) !== 0)
    diff(
      `${id}: sorteo anulado con premios ${d.liabilityCents} y pagos ${d.paidCents}`,
      `${en}: cancelled draw with prizes or payouts`,
    )
  const unit = raffle
    ? Number(plan.ticketPriceCents)
    : Number(plan.ticketPriceCents) / Math.max(1, Number(plan.fractions))
  let count = Number(raffle ? c?.ticketsToRefund : c?.fractionsToRefund)
  if (raffle && d.closeOfSales?.ticketsSold !== null && d.closeOfSales?.ticketsSold !== undefined) {
    if (Number(d.closeOfSales.ticketsSold) !== count)
      diff(
        `${id}: ${count} boletos a devolver, se vendieron ${d.closeOfSales.ticketsSold}`,
        `${en}: tickets to refund differ from the tickets sold`,
      )
    count = Number(d.closeOfSales.ticketsSold)
  }
  if (!raffle && Array.isArray(d.closeOfSales?.register)) {
    const distributed = (d.closeOfSales.register as Array<{ status: string; fractions: number }>)
      .filter((x) => x.status === 'distributed')
      .reduce((t, x) => t + Number(x.fractions), 0)
    if (distributed !== count)
      diff(
        `${id}: ${count} fracciones a devolver, distribuidas ${distributed}`,
        `${en}: fractions to refund differ from the fractions distributed`,
      )
  }
  const owed = Math.round(count * unit)
  if (Number(d.refundCents) !== owed)
    diff(
      `${id}: devoluciones ${d.refundCents}, recalculadas ${owed} (${count} x ${unit})`,
      `${en}: refunds owed differ`,
    )
  const paid = d.refunds ?? { paid: 0, paidCents: 0 }
  if (Number(paid.paidCents) !== Math.round(Number(paid.paid) * unit))
    diff(
      `${id}: ${paid.paid} devoluciones pagadas suman ${paid.paidCents}, al precio serían ${Math.round(Number(paid.paid) * unit)}`,
      `${en}: refunds paid differ from the price`,
    )
  if (Number(paid.paidCents) > owed)
    diff(`${id}: devuelto ${paid.paidCents}, más de lo debido ${owed}`, `${en}: refunded more than owed`)
}

export function checkInstantGame(r: { record: string; data: any }, diff: Diff): void {
  const d = r.data
  const id = `registro ${r.record} (juego instantáneo ${d.gameNo})`
  const en = `record ${r.record}`
  const tiers = (d.tiers ?? []) as Array<{ tier: number; amountCents: number; count: number }>
  const fund = tiers.reduce((s, t) => s + Number(t.amountCents) * Number(t.count), 0)
  if (fund !== Number(d.prizeFundCents))
    diff(
      `${id}: fondo de premios ${d.prizeFundCents}, la estructura de premios suma ${fund}`,
      `${en}: prize fund differs from the prize structure`,
    )
  tiers.forEach((t, i) => {
    if (Number(d.tierCounts?.[i]) !== Number(t.count))
      diff(
        `${id}: categoría ${t.tier}: ${d.tierCounts?.[i]} premios generados, la estructura dice ${t.count}`,
        `${en}: tier ${t.tier} count differs`,
      )
  })
  const sales = Number(d.sales?.tickets) * Number(d.priceCents)
  if (sales !== Number(d.sales?.salesCents))
    diff(
      `${id}: ventas ${d.sales?.salesCents}, recalculadas ${sales} (${d.sales?.tickets} boletos x ${d.priceCents})`,
      `${en}: sales differ`,
    )
  // The sales by hour the daily totals count add up to the game's sales.
  let byHourTickets = 0
  let byHourCents = 0
  for (const h of Object.values((d.salesByHour ?? {}) as Record<string, any>)) {
    byHourTickets += Number(h.tickets)
    byHourCents += Number(h.salesCents)
  }
  if (byHourTickets !== Number(d.sales?.tickets) || byHourCents !== Number(d.sales?.salesCents))
    diff(
      `${id}: ventas por hora ${byHourTickets} boletos, ${byHourCents}; el juego dice ${d.sales?.tickets}, ${d.sales?.salesCents}`,
      `${en}: sales by hour differ from the sales`,
    )
  const paidByTier = new Map<number, number>()
  const serials = new Set<string>()
  let paid = 0
  for (const p of (d.payouts ?? []) as Array<any>) {
    const tier = tiers.find((t) => Number(t.tier) === Number(p.tier))
    paid += Number(p.amountCents)
    if (!tier)
      diff(
        `${id}: pago ${p.payoutId} de la categoría ${p.tier}, que el juego no tiene`,
        `${en}: payout of an unknown tier`,
      )
    else if (Number(p.amountCents) !== Number(tier.amountCents))
      diff(
        `${id}: pago ${p.payoutId} (boleto ${p.serial}) de ${p.amountCents}, la categoría ${p.tier} paga ${tier.amountCents}`,
        `${en}: payout ${p.payoutId} amount differs from its tier`,
      )
    paidByTier.set(Number(p.tier), (paidByTier.get(Number(p.tier)) ?? 0) + 1)
    if (serials.has(String(p.serial)))
      diff(`${id}: boleto ${p.serial} pagado dos veces`, `${en}: ticket ${p.serial} paid twice`)
    serials.add(String(p.serial))
    if (Number(p.amountCents) > Number(d.identityThresholdCents ?? 0) && !/^[A-Za-z0-9_-]{16,}$/.test(String(p.payee)))
      diff(
        `${id}: pago ${p.payoutId} sin referencia del ganador identificado`,
        `${en}: payout ${p.payoutId} has no keyed reference of the payee`,
      )
  }
  for (const [tier, n] of paidByTier) {
    const t = tiers.find((x) => Number(x.tier) === tier)
    if (t && n > Number(t.count))
      diff(
        `${id}: categoría ${tier}: ${n} premios pagados de ${t.count} generados`,
        `${en}: tier ${tier} paid more prizes than it holds`,
      )
  }
  if (paid > fund) diff(`${id}: pagado ${paid}, más que el fondo ${fund}`, `${en}: paid more than the prize fund`)
  for (const x of (d.refunds ?? []) as Array<any>)
    if (Number(x.amountCents) !== Number(d.priceCents))
      diff(
        `${id}: devolución ${x.payoutId} de ${x.amountCents}, el precio es ${d.priceCents}`,
        `${en}: refund differs from the price`,
      )
  for (const x of (d.reports ?? []) as Array<any>)
    if (!x.discoveredAt)
      diff(
        `${id}: denuncia ${x.reportId} (${x.kind}) sin fecha de descubrimiento`,
        `${en}: report ${x.reportId} without its date`,
      )
}
