/**
 * Builds the Preact screens with Vite: each app is a folder with an index.html (kiosk/kiosk, kiosk/cashier,
 * display/display, display/caller) and lands in dist/<name>, where the server serves it at /<name>/.
 */
import { existsSync } from 'node:fs'
import { resolve } from 'node:path'
import { build } from 'vite'

const apps = [
  { name: 'kiosk', root: 'kiosk/kiosk' },
  { name: 'cashier', root: 'kiosk/cashier' },
  { name: 'instant', root: 'kiosk/instant' },
  { name: 'lotto', root: 'kiosk/lotto' },
  // Issue 27: the electronic bingo terminal at a seat of the hall.
  { name: 'terminal', root: 'kiosk/terminal' },
  { name: 'display', root: 'display/display' },
  { name: 'caller', root: 'display/caller' },
  // Issue 14 point 7: the inspector's read-only screen.
  { name: 'inspector', root: 'display/inspector' },
  // Issue 17: the back office.
  { name: 'admin', root: 'admin' },
]

// `--if-missing` (used by `npm start`): build only the screens that have never been built.
const ifMissing = process.argv.includes('--if-missing')

for (const app of apps) {
  const root = resolve(app.root)
  if (ifMissing && existsSync(resolve('dist', app.name, 'index.html'))) continue
  if (!existsSync(resolve(root, 'index.html'))) {
    console.log(`skip ${app.name}: ${app.root}/index.html not present`)
    continue
  }
  await build({
    root,
    base: `/${app.name}/`,
    logLevel: 'warn',
    esbuild: { jsx: 'automatic', jsxImportSource: 'preact' },
    resolve: { alias: { react: 'preact/compat', 'react-dom': 'preact/compat' } },
    build: { outDir: resolve('dist', app.name), emptyOutDir: true, sourcemap: true, target: 'es2022' },
  })
  console.log(`built ${app.name} -> dist/${app.name}`)
}
