import type { LotteryPlanInput, RafflePlanInput } from '../../server/src/lottery/rules.ts'
import type { LottoPlanInput } from '../../server/src/lotto/plan.ts'

const staff = {
  authority: 'Gerente General',
  director: 'Director del Sorteo',
  moderator: 'Moderador',
  notary: 'Notario de Fe Pública N.º 12',
}

/** A valid 6-of-49 plan; tests break one thing at a time. */
export function plan649(overrides: Partial<LottoPlanInput> = {}): LottoPlanInput {
  return {
    operator: 'Lotería Nacional de Beneficencia y Salubridad',
    gameCode: 'LOTO649',
    name: 'Loto 6/49',
    drawNumber: 101,
    issue: '2025-A',
    range: 49,
    picks: 6,
    priceCents: 500,
    currency: 'BOB',
    salesStartAt: '2025-03-01T08:00:00-04:00',
    salesCloseAt: '2025-03-08T19:00:00-04:00',
    drawAt: '2025-03-08T20:00:00-04:00',
    claimDeadline: '2025-05-07T23:59:59-04:00',
    drawPlace: 'Salón de sorteos, La Paz',
    paymentPlace: 'Cajas de la Lotería Nacional, La Paz',
    regulationUrl: 'https://loteria.example.bo/reglamento/loto649',
    authorisationRef: 'AJ-RA-2025-0101',
    prizePoolBp: 5000,
    categories: [
      { code: 'C6', name: 'Premio Mayor', matches: 6, prize: { type: 'share', bp: 6000 } },
      { code: 'C5', name: 'Súper Boleto', matches: 5, prize: { type: 'share', bp: 2500 } },
      { code: 'C4', name: 'Oro Mágico', matches: 4, prize: { type: 'share', bp: 1500 } },
      { code: 'C3', name: 'Reintegro', matches: 3, prize: { type: 'fixed', amountCents: 1000 } },
    ],
    budgetCents: 5_000_000,
    drawMethod: 'rng',
    staff,
    ...overrides,
  }
}

/** A valid traditional lottery: 00000-99999, 2 series of 10 fractions, with approximations and terminations. */
export function lotteryPlan(overrides: Partial<LotteryPlanInput> = {}): LotteryPlanInput {
  return {
    kind: 'traditional',
    institution: 'Lotería Nacional de Beneficencia y Salubridad',
    name: 'Sorteo Extraordinario de Carnaval',
    gameCode: 'LNBCARN',
    drawNumber: 2451,
    issue: 'Emisión 2025-02',
    numbering: { from: 0, to: 99_999, digits: 5 },
    series: 2,
    fractions: 10,
    ticketPriceCents: 10_000,
    currency: 'BOB',
    licensedMaxTickets: 300_000,
    prizes: [
      { code: 'P1', name: 'Primer Premio', rule: { type: 'exact' }, amountCents: 100_000_000 },
      { code: 'P2', name: 'Segundo Premio', rule: { type: 'exact' }, amountCents: 20_000_000 },
      {
        code: 'A1',
        name: 'Aproximación al Primer Premio',
        rule: { type: 'approximation', of: 'P1', distance: 1 },
        amountCents: 2_000_000,
      },
      {
        code: 'T3',
        name: 'Terminación de tres cifras',
        rule: { type: 'ending', of: 'P1', digits: 3 },
        amountCents: 100_000,
      },
      {
        code: 'T1',
        name: 'Reintegro (última cifra)',
        rule: { type: 'ending', of: 'P1', digits: 1 },
        amountCents: 10_000,
      },
    ],
    budgetCents: 1_000_000_000,
    salesStartAt: '2025-02-01T08:00:00-04:00',
    salesCloseAt: '2025-03-01T12:00:00-04:00',
    drawAt: '2025-03-01T18:00:00-04:00',
    claimDeadline: '2025-04-30T23:59:59-04:00',
    drawPlace: 'Salón de sorteos, La Paz',
    paymentPlace: 'Oficinas centrales de la Lotería Nacional, La Paz',
    regulationUrl: 'https://loteria.example.bo/reglamento/2451',
    authorisationRef: 'AJ-RA-2025-2451',
    drawMethod: 'rng',
    staff,
    securityMarks: 'Holograma, microtexto y tinta UV',
    ...overrides,
  }
}

/** A valid charity raffle (Cantabria) of 500 tickets at 5 EUR with two goods prizes. */
export function rafflePlan(overrides: Partial<RafflePlanInput> = {}): RafflePlanInput {
  return {
    kind: 'raffle',
    organiser: 'Asociación Cultural Peña Sardinero',
    name: 'Rifa de fiestas de San Juan',
    gameCode: 'RIFASJ',
    drawNumber: 1,
    classification: 'benefica',
    nonProfit: true,
    numbering: { from: 1, to: 500, digits: 3 },
    ticketPriceCents: 500,
    currency: 'EUR',
    prizes: [
      {
        code: 'R1',
        name: 'Primer premio',
        description: 'Bicicleta de montaña',
        kind: 'goods',
        valueCents: 90_000,
        depositedAt: '2025-05-30T10:00:00+02:00',
        depositPlace: 'Escaparate de la sede, Santander',
        invoiceRef: 'FAC-2025-118',
        source: 'operator',
      },
      {
        code: 'R2',
        name: 'Segundo premio',
        description: 'Cesta de productos de Cantabria',
        kind: 'goods',
        valueCents: 15_000,
        depositedAt: '2025-05-30T10:00:00+02:00',
        depositPlace: 'Escaparate de la sede, Santander',
        invoiceRef: 'FAC-2025-119',
        source: 'operator',
      },
    ],
    salesStartAt: '2025-06-01T10:00:00+02:00',
    salesCloseAt: '2025-06-23T20:00:00+02:00',
    drawAt: '2025-06-23T22:00:00+02:00',
    claimDeadline: '2025-08-22T23:59:59+02:00',
    drawPlace: 'Plaza de la Peña, Santander',
    paymentPlace: 'Sede de la asociación, Santander',
    drawMethod: 'rng',
    staff,
    ...overrides,
  }
}

/**
 * LOT-18 / LNS-8: registers an AJ-authorised tómbola (a sealed, certified blower of the operator, in no hall) for
 * manual lotto and lottery draws, which name it by its seal code. Returns the seal code.
 */
export async function registerTombola(
  services: {
    devices: {
      register(input: {
        id: string
        kind: 'blower'
        name: string
        sealCode: string
        certificateId: string
      }): Promise<unknown>
    }
  },
  sealCode = 'AJ-T-0042',
): Promise<string> {
  await services.devices.register({
    id: `tombola-${sealCode}`,
    kind: 'blower',
    name: `Tómbola ${sealCode}`,
    sealCode,
    certificateId: `AJ-CERT-${sealCode}`,
  })
  return sealCode
}

/**
 * LNS-9: registers a lotto ball set of `ballCount` balls and a reserve set of the same range (the operator's, in no
 * hall), which a manual lotto draw needs before its first ball. Set-up only: the registry's own test goes over HTTP.
 */
export async function registerLottoBallSets(
  services: {
    lotto: {
      registerBallSet(
        input: { reference: string; ballCount: number; sealRef: string },
        actor: null,
      ): Promise<{ id: string }>
      markReserveBallSet(id: string, actor: null): Promise<unknown>
    }
  },
  ballCount = 49,
): Promise<{ ballSetId: string; reserveSetId: string }> {
  const main = await services.lotto.registerBallSet(
    { reference: `JB-${ballCount}-A`, ballCount, sealRef: `AJ-PREC-${ballCount}-A` },
    null,
  )
  const reserve = await services.lotto.registerBallSet(
    { reference: `JB-${ballCount}-R`, ballCount, sealRef: `AJ-PREC-${ballCount}-R` },
    null,
  )
  await services.lotto.markReserveBallSet(reserve.id, null)
  return { ballSetId: main.id, reserveSetId: reserve.id }
}

/**
 * LOT-18: registers a numbered lottery's digit ball set (0-9 in each of `drums` drums, one per digit of the ticket
 * number) and a reserve set of the same drums, which a manual lottery draw needs before its first number. Set-up only:
 * the registry's own test goes over HTTP (test/e2e/draw-ball-sets.test.ts).
 */
export async function registerLotteryBallSets(
  services: {
    lottery: {
      registerBallSet(
        input: { reference: string; drums: number; sealRef: string },
        actor: null,
      ): Promise<{ id: string }>
      markReserveBallSet(id: string, actor: null): Promise<unknown>
    }
  },
  drums: number,
): Promise<{ ballSetId: string; reserveSetId: string }> {
  const main = await services.lottery.registerBallSet(
    { reference: `JD-${drums}-A`, drums, sealRef: `AJ-PREC-D${drums}-A` },
    null,
  )
  const reserve = await services.lottery.registerBallSet(
    { reference: `JD-${drums}-R`, drums, sealRef: `AJ-PREC-D${drums}-R` },
    null,
  )
  await services.lottery.markReserveBallSet(reserve.id, null)
  return { ballSetId: main.id, reserveSetId: reserve.id }
}
