import { serve, type ServerType } from '@hono/node-server'
import type { Server as HttpServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { Config } from './config.ts'
import { createHttpApp } from './http/app.ts'
import { mountScreens } from './http/screens.ts'
import { mountLauncher } from './http/launcher.ts'
import { resolve } from 'node:path'
import { attachRealtime } from './realtime/hub.ts'
import { createServices, type ServiceOverrides, type Services } from './services.ts'

export interface RunningServer {
  url: string
  port: number
  services: Services
  close(): Promise<void>
}

/** Starts HTTP + socket.io on one port. Tests pass a Config literal with port 0 and a temp DATA_DIR. */
export async function createServer(config: Config, overrides: ServiceOverrides = {}): Promise<RunningServer> {
  const services = await createServices(config, overrides)
  // Issue 28 point 5: the digest of the code and the configuration, journaled at start and every 24 hours.
  // Where the profile requires certified builds, a build absent from the release register does not start.
  if (config.selfVerification || services.selfVerification.releaseRequired) {
    try {
      await services.selfVerification.verifyNow('start')
    } catch (e) {
      await services.close()
      throw e
    }
    services.selfVerification.start()
  }
  const app = createHttpApp(services)
  mountLauncher(app, services, resolve('dist'))
  mountScreens(app)
  const server: ServerType = await new Promise((resolve) => {
    const s = serve({ fetch: app.fetch, port: config.port, hostname: config.host }, () => resolve(s))
  })
  // Kiosks and cashier stations reuse their connections: keep an idle one open longer than a client would, so
  // the server never closes a socket at the instant a client sends its next request on it (ECONNRESET on a
  // loaded host). Node's default is 5 s, just above undici's 4 s.
  ;(server as HttpServer).keepAliveTimeout = 65_000
  ;(server as HttpServer).headersTimeout = 66_000
  const realtime = attachRealtime(server as HttpServer, services)
  const port = (server.address() as AddressInfo).port
  const host = config.host === '0.0.0.0' || config.host === '::' ? '127.0.0.1' : config.host
  return {
    url: `http://${host}:${port}`,
    port,
    services,
    async close() {
      // socket.io's close closes the HTTP server too, which waits for every connection: idle keep-alive sockets
      // (kept 65 s, above) are closed at once, and whatever a client still holds open after a moment is cut, so a
      // stop never waits out the keep-alive.
      const http = server as HttpServer
      const stopped = new Promise<void>((r) => http.close(() => r()))
      http.closeIdleConnections()
      const cut = setTimeout(() => http.closeAllConnections(), 2000)
      cut.unref()
      await realtime.close()
      await stopped
      clearTimeout(cut)
      await services.close()
    },
  }
}
