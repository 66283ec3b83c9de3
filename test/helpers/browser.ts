import { execFileSync } from 'node:child_process'
import { existsSync, readdirSync, statSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { chromium, type Browser, type Page } from 'playwright-core'
import { describe } from 'vitest'

/**
 * Real Chromium for the browser suites: Debian's `/usr/bin/chromium` (or CHROMIUM_PATH), headless, no sandbox,
 * no background networking (this machine's closed network refuses it). Under CI=true a missing browser fails the
 * run (.ci/run installs it); on a developer machine the suite is skipped with what to install.
 */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
]
export const SCREENSHOTS = resolve('test-output/screenshots')

const haveBrowser = existsSync(CHROMIUM_PATH)
if (!haveBrowser && process.env.CI === 'true')
  throw new Error(`Chromium not found at ${CHROMIUM_PATH}: .ci/run installs it (apt-get install chromium)`)
if (!haveBrowser)
  console.warn(
    `browser tests skipped: no Chromium at ${CHROMIUM_PATH} (apt-get install chromium, or set CHROMIUM_PATH)`,
  )

/** `describe` when a browser is there, `describe.skip` otherwise. */
export const browserSuite = haveBrowser ? describe : describe.skip

export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS, headless: true })
}

/**
 * A page whose `Date` starts where the server's injected clock is, so that the server and the page agree on the
 * day whatever the real date (timers still run in real time).
 */
export async function pageOnClock(
  browser: Browser,
  clock: { now(): Date },
  viewport: { width: number; height: number },
): Promise<Page> {
  const page = await browser.newPage({ viewport })
  await page.clock.setSystemTime(clock.now())
  return page
}

function newestMtime(dir: string): number {
  let newest = 0
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, entry.name)
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(p) : statSync(p).mtimeMs)
  }
  return newest
}

/**
 * Builds the screens when one of `apps` has no dist/<app>/index.html yet (CI builds them before the tests), or,
 * on a developer's machine, when a file under `sources` is newer than the build.
 */
export function ensureBuilt(apps: string[], sources: string[] = []): void {
  const built = apps.map((a) => resolve('dist', a, 'index.html'))
  const missing = built.some((f) => !existsSync(f))
  const oldest = missing ? 0 : Math.min(...built.map((f) => statSync(f).mtimeMs))
  const stale = !missing && process.env.CI !== 'true' && sources.some((d) => newestMtime(resolve(d)) > oldest)
  if (missing || stale) execFileSync('npx', ['tsx', 'scripts/build.ts'], { stdio: 'inherit' })
}
