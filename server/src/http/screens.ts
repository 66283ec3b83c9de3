import type { App } from './context.ts'
import { existsSync, readFileSync } from 'node:fs'
import { extname, join, normalize, resolve } from 'node:path'

const types: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript',
  '.css': 'text/css',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.json': 'application/json',
  '.woff2': 'font/woff2',
}

/** Serves the built screens (dist/<app>) at /kiosk, /cashier, /display and /caller; `/` is the launcher (launcher.ts). */
export function mountScreens(app: App, distDir = resolve('dist')) {
  const apps = ['kiosk', 'cashier', 'display', 'caller', 'instant', 'lotto', 'inspector', 'admin', 'terminal'] as const
  for (const name of apps) {
    const root = join(distDir, name)
    app.get(`/${name}`, (c) => c.redirect(`/${name}/`))
    app.get(`/${name}/*`, (c) => {
      const rel = normalize(c.req.path.slice(name.length + 2)).replace(/^(\.\.[/\\])+/, '')
      let file = join(root, rel || 'index.html')
      if (!file.startsWith(root) || !existsSync(file) || !extname(file)) file = join(root, 'index.html')
      if (!existsSync(file)) return c.text(`La pantalla ${name} no está compilada: ejecute npm run build`, 503)
      return c.body(readFileSync(file), 200, { 'content-type': types[extname(file)] ?? 'application/octet-stream' })
    })
  }
}
