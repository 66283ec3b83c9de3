import { seedDemoHall } from './app/demo.ts'
import { loadConfig } from './config.ts'
import { createServer } from './server.ts'

/** Composition root: `npm start`. */
async function main() {
  const config = loadConfig()
  const server = await createServer(config)
  const log = server.services.log
  if (config.seedDemo) {
    const demo = await seedDemoHall(server.services)
    log.info('demo hall ready', demo)
  }
  log.info(`Bolillo listening on ${server.url} (storage ${server.services.db.engine}, profile ${config.profileId})`)
  process.stdout.write(`\n  Bolillo en ${server.url}\n  Pantallas: ${server.url}/display/  ${server.url}/caller/  ${server.url}/kiosk/  ${server.url}/cashier/\n  Salud: ${server.url}/api/health\n\n`)
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
