import type { Database } from '../../server/src/db/database.ts'
import { createSoftwareRegistry } from '../../server/src/equipment/software.ts'
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

/**
 * Issue 26 (GEN-4, GEN-7, BNG-9): the operator's shared ticket printer, registered with a seal code, a type-approval
 * number and the issuing system's authorisation, so that every kiosk, station and terminal of a test prints on a
 * printer both shipped profiles accept; startTestServer registers it (a test of the rule suspends it, or gives a
 * device a printer of its own without them).
 */
export const TEST_PRINTER_ID = 'TEST-PRINTER'
/** Issue 26 (RNG-3, RNG-29, RNG-32): the test certificate reference of every running software build. */
export const TEST_SOFTWARE_CERTIFICATE = 'CERT-PRUEBA-SOFTWARE'
export async function registerTestPrinterAndSoftware(services: {
  devices: {
    register(input: Record<string, unknown> & { id: string; kind: 'printer'; name: string }): Promise<unknown>
  }
  software: {
    list(): Promise<{
      records: Array<{ component: string; jurisdiction: string; buildSha256: string; status: string }>
      running: Array<{ component: string; version: string; buildSha256: string }>
    }>
    record(
      input: {
        component: 'draw-engine' | 'pot-award' | 'derived-bingo'
        jurisdiction: string
        version: string
        buildSha256: string
        certificateRef: string
        laboratory: string
      },
      by: string,
    ): Promise<unknown>
  }
}): Promise<void> {
  await services.devices
    .register({
      id: TEST_PRINTER_ID,
      kind: 'printer',
      name: 'Impresora de tickets (pruebas)',
      hallId: null,
      sealCode: 'AJ-PRUEBA-IMPRESORA',
      typeApprovalNo: 'HOM-PRUEBA-IMPRESORA',
      issuingAuthorisation: 'AUT-PRUEBA-EMISION',
    })
    .catch((err: { code?: string }) => {
      if (err.code !== 'CONFLICT') throw err
    })
  const { records, running } = await services.software.list()
  for (const jurisdiction of ['BO-2025', 'BO-2013', 'ES-CB-2010'])
    for (const b of running) {
      if (
        records.some(
          (r) =>
            r.jurisdiction === jurisdiction &&
            r.component === b.component &&
            r.buildSha256 === b.buildSha256 &&
            r.status === 'active',
        )
      )
        continue
      await services.software.record(
        {
          component: b.component as 'draw-engine' | 'pot-award' | 'derived-bingo',
          jurisdiction,
          version: b.version,
          buildSha256: b.buildSha256,
          certificateRef: TEST_SOFTWARE_CERTIFICATE,
          laboratory: 'Laboratorio de pruebas',
        },
        'pruebas',
      )
    }
}

/**
 * Issue 26 (RNG-3): for a test that builds the bingo and bonus services on a database of its own (no server): the
 * running software builds certified for every shipped jurisdiction, as startTestServer records them.
 */
export async function certifyTestSoftware(db: Database, clock: { now(): Date }): Promise<void> {
  const registry = createSoftwareRegistry({ db, clock, demoReferencesRefused: false })
  for (const jurisdiction of ['BO-2025', 'BO-2013', 'ES-CB-2010'])
    for (const b of (await registry.list()).running)
      await registry.record(
        {
          component: b.component,
          jurisdiction,
          version: b.version,
          buildSha256: b.buildSha256,
          certificateRef: TEST_SOFTWARE_CERTIFICATE,
          laboratory: 'Laboratorio de pruebas',
        },
        'pruebas',
      )
}
