import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { seedDemoHall } from './demo.ts'
import { isLoopbackHost, loadConfig } from './config.ts'
import { createServer } from './server.ts'

/** Composition root: `npm start`. */
async function main() {
  const config = loadConfig()
  const server = await createServer(config)
  const log = server.services.log
  let deviceLinks = ''
  if (config.seedDemo) {
    const demo = await seedDemoHall(server.services)
    log.info('demo hall ready', demo)
    const file = join(config.dataDir, 'demo-credentials.json')
    // Issue 24 point 4: device credentials are printed only when the server answers on this machine alone.
    if (config.auth === 'on' && isLoopbackHost(config.host) && existsSync(file)) {
      // The demo's enrolled devices: open these once, the screen keeps its credential.
      const creds = JSON.parse(readFileSync(file, 'utf8')) as { devices: Array<{ kind: string; credential: string }> }
      const of = (kind: string) => creds.devices.find((d) => d.kind === kind)?.credential ?? ''
      deviceLinks = `  Kiosco: ${server.url}/kiosk/?hall=${demo.hallId}&device=${of('kiosk')}\n  Caja:   ${server.url}/cashier/?hall=${demo.hallId}&device=${of('cashier_station')}\n  Personal (contraseña "bolillo-demo"): director, jefe, locutor, cajero, auditor\n`
    }
  }
  // Issue 14 point 5: the demo's published passwords only serve the demo on this machine; anywhere else the demo
  // accounts must choose their own before doing anything. A production start without a director says how to add one.
  const loopback = isLoopbackHost(config.host)
  if (config.seedDemo && !loopback) {
    const n = await server.services.auth.requirePasswordChangeOfDemoAccounts()
    if (n > 0)
      log.warn(
        `${n} demo account(s) must change their password at their next login (the server is not running as the local demo)`,
      )
  }
  if (!config.seedDemo && !(await server.services.auth.hasDirector())) {
    process.stdout.write(
      '\n  No hay ningún director. Cree el primero con:  npx bolillo create-director --username <usuario> --name "<nombre>"\n',
    )
  }
  log.info(`Bolillo listening on ${server.url} (storage ${server.services.db.engine}, profile ${config.profileId})`)
  process.stdout.write(
    `\n  Bolillo en ${server.url}\n  Inicio: ${server.url}/ (todas las pantallas)\n  Sala:   ${server.url}/display/?hall=demo\n  Locutor: ${server.url}/caller/?hall=demo\n${deviceLinks}  Salud:  ${server.url}/api/health\n\n`,
  )
  let closing = false
  const stop = async () => {
    if (closing) return
    closing = true
    await server.close()
    process.exit(0)
  }
  process.on('SIGTERM', stop)
  process.on('SIGINT', stop)
}

main().catch((err) => {
  process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`)
  process.exit(1)
})
