import { execFileSync } from 'node:child_process'
import { existsSync, readdirSync, statSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core'
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

let shared: Promise<Browser> | null = null

/**
 * Chromium for one test file. Issue 25 point 3: a test worker runs many files one after the other (vitest.config.ts,
 * `isolate: false`), and starting Chromium for each cost one to two seconds of this 2-core machine; the worker now
 * starts it once, and each file gets its own handle on it. Every page and context a file opens is a context of its
 * own (cookies, storage, cache and clock apart, as in a browser of its own); the handle's close() closes those
 * contexts and leaves the browser to the worker's next file (Playwright ends it when the worker exits). A browser
 * that crashed or was disconnected is started again for the next file.
 */
export async function launchChromium(): Promise<Browser> {
  shared ??= chromium
    .launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS, headless: true })
    .then((browser) => {
      browser.on('disconnected', () => {
        shared = null
      })
      return browser
    })
    .catch((e: unknown) => {
      shared = null
      throw e
    })
  const browser = await shared
  const contexts = new Set<BrowserContext>()
  const own = (context: BrowserContext) => {
    contexts.add(context)
    context.once('close', () => contexts.delete(context))
    return context
  }
  const handle: Pick<Browser, 'newContext' | 'newPage' | 'contexts' | 'close'> = {
    newContext: async (options) => own(await browser.newContext(options)),
    // Browser.newPage makes a context that the page owns (closing the page closes it), as before.
    newPage: async (options) => {
      const page = await browser.newPage(options)
      own(page.context())
      return page
    },
    contexts: () => [...contexts],
    close: async () => {
      await Promise.all([...contexts].map((c) => c.close().catch(() => undefined)))
      contexts.clear()
    },
  }
  return new Proxy(browser, {
    get: (target, prop) => {
      if (prop in handle) return handle[prop as keyof typeof handle]
      const value: unknown = Reflect.get(target, prop, target)
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value
    },
  })
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

/**
 * Waits until the page has painted what it has: its web fonts loaded, every animation that ends (an entrance, a
 * flash) ended, the scroll position still, and two frames drawn after that (a resize's layout and a
 * ResizeObserver's re-render land in them). Issue 25 point 3: it replaces fixed pauses of 200 to 800 ms before
 * screenshots and layout checks; it waits for the thing those pauses guessed at, however long that takes (never
 * longer than `timeout`). Endless animations (a pulse, a spinner) are not waited for; nor any animation with
 * `animations: false`, for a screenshot taken with `animations: 'disabled'` (which ends them itself).
 */
export async function settled(
  page: Page,
  { animations = true, timeout = 10_000 }: { animations?: boolean; timeout?: number } = {},
): Promise<void> {
  await page.waitForFunction(
    async (animations) => {
      await document.fonts.ready
      const frame = () => new Promise<number>((r) => requestAnimationFrame(r))
      const busy = () =>
        animations &&
        document
          .getAnimations()
          .some((a) => a.playState === 'running' && Number.isFinite(a.effect?.getComputedTiming().endTime ?? Infinity))
      const y = window.scrollY
      const x = window.scrollX
      await frame()
      await frame()
      return !busy() && window.scrollY === y && window.scrollX === x
    },
    animations,
    { timeout, polling: 50 },
  )
}
