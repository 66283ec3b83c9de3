/**
 * Issue 26 (GEN-7, GEN-4): every device a test enrols carries a seal code and a type-approval number of its own, as
 * both shipped profiles require of the devices that sell or pay; a test of the refusal enrols one without them.
 */
let next = 0
export function sealed(): { sealCode: string; typeApprovalNo: string } {
  next += 1
  const tag = `${process.pid}-${next}`
  return { sealCode: `AJ-PRUEBA-${tag}`, typeApprovalNo: `HOM-PRUEBA-${tag}` }
}

/**
 * Issue 26 (GEN-6): the operator's RNG, registered with its seal and certificate, as a hall that draws by software
 * has it; startTestServer registers it for every test server (a test of its absence suspends it).
 */
export const TEST_RNG_ID = 'TEST-RNG'
export async function registerTestRng(services: {
  devices: { register(input: Record<string, unknown> & { id: string; kind: 'rng'; name: string }): Promise<unknown> }
}): Promise<void> {
  // A restarted server (the same data directory) has it already.
  await services.devices
    .register({
      id: TEST_RNG_ID,
      kind: 'rng',
      name: 'RNG del servidor (pruebas)',
      hallId: null,
      sealCode: 'AJ-PRUEBA-RNG',
      certificateId: 'CC-PRUEBA-RNG',
      typeApprovalNo: 'HOM-PRUEBA-RNG',
    })
    .catch((err: { code?: string }) => {
      if (err.code !== 'CONFLICT') throw err
    })
}
