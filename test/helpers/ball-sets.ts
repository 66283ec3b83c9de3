import type { Services } from '../../server/src/services.ts'

/**
 * BNG-24/25/26: what a hall needs before it draws physical balls (a manual drum or a blower): an active ball set
 * and a reserve set, type-approved with the games their manufacturer guarantees. Registered through the service,
 * for tests that build their halls the same way.
 */
export async function registerBallSets(
  services: Pick<Services, 'ballSets'>,
  hallId: string,
  opts: { ballCount?: number } = {},
): Promise<{ activeId: string; reserveId: string }> {
  const common = {
    hallId,
    approvalNo: 'HOM-BOLAS-1',
    guaranteedGames: 3000,
    ...(opts.ballCount ? { ballCount: opts.ballCount } : {}),
  }
  const name = opts.ballCount ? `Juego de ${opts.ballCount} bolas` : 'Juego'
  const active = await services.ballSets.register({ ...common, label: `${name} 1`, status: 'active' })
  const reserve = await services.ballSets.register({ ...common, label: `${name} 2 (reserva)`, status: 'reserve' })
  return { activeId: active.id, reserveId: reserve.id }
}

/**
 * BNG-30/31: the hall's manual drum, registered with its seal, Certificado de Cumplimiento and type-approval number
 * (CFG-8), and its ball sets: everything a hall needs before its first manual game.
 */
export async function equipForManualGames(
  services: Pick<Services, 'ballSets' | 'devices'>,
  hallId: string,
): Promise<{ activeId: string; reserveId: string; extractorId: string }> {
  const extractorId = `BOMBO-${hallId}`.slice(0, 40)
  await services.devices.register({
    id: extractorId,
    kind: 'blower',
    name: 'Bombo manual',
    hallId,
    sealCode: `AJ-PRE-${hallId}`.slice(0, 40),
    certificateId: 'CC-BOMBO-1',
    typeApprovalNo: 'HOM-BOMBO-1',
  })
  return { ...(await registerBallSets(services, hallId)), extractorId }
}
