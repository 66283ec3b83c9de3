import { execFileSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { resolve } from 'node:path'
import { chromium, type Browser } from 'playwright-core'
import { describe } from 'vitest'

/**
 * Real Chromium for the browser suites: Debian's `/usr/bin/chromium` (or CHROMIUM_PATH), headless, no sandbox,
 * no background networking (this machine's closed network refuses it). Under CI=true a missing browser fails the
 * run (.ci/run installs it); on a developer machine the suite is skipped with what to install.
 */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'
export const CHROMIUM_ARGS = ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync']
export const SCREENSHOTS = resolve('test-output/screenshots')

const haveBrowser = existsSync(CHROMIUM_PATH)
if (!haveBrowser && process.env.CI === 'true') throw new Error(`Chromium not found at ${CHROMIUM_PATH}: .ci/run installs it (apt-get install chromium)`)
if (!haveBrowser) console.warn(`browser tests skipped: no Chromium at ${CHROMIUM_PATH} (apt-get install chromium, or set CHROMIUM_PATH)`)

/** `describe` when a browser is there, `describe.skip` otherwise. */
export const browserSuite = haveBrowser ? describe : describe.skip

export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS, headless: true })
}

/** Builds the screens when one of `apps` has no dist/<app>/index.html yet (CI builds them before the tests). */
export function ensureBuilt(...apps: string[]): void {
  if (apps.some((a) => !existsSync(resolve('dist', a, 'index.html')))) execFileSync('npx', ['tsx', 'scripts/build.ts'], { stdio: 'inherit' })
}
