import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { seedDemoHall } from './demo.ts'
import { loadConfig } from './config.ts'
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
    if (config.auth === 'on' && existsSync(file)) {
      // The demo's enrolled devices: open these once, the screen keeps its credential.
      const creds = JSON.parse(readFileSync(file, 'utf8')) as { devices: Array<{ kind: string; credential: string }> }
      const of = (kind: string) => creds.devices.find((d) => d.kind === kind)?.credential ?? ''
      deviceLinks = `  Kiosco: ${server.url}/kiosk/?hall=${demo.hallId}&device=${of('kiosk')}\n  Caja:   ${server.url}/cashier/?hall=${demo.hallId}&device=${of('cashier_station')}\n  Personal (contraseña "bolillo-demo"): director, jefe, locutor, cajero, auditor\n`
    }
  }
  log.info(`Bolillo listening on ${server.url} (storage ${server.services.db.engine}, profile ${config.profileId})`)
  process.stdout.write(`\n  Bolillo en ${server.url}\n  Inicio: ${server.url}/ (todas las pantallas)\n  Sala:   ${server.url}/display/?hall=demo\n  Locutor: ${server.url}/caller/?hall=demo\n${deviceLinks}  Salud:  ${server.url}/api/health\n\n`)
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
