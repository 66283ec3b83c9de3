/**
 * Issue 29: what the cashier-screen browser tests build alike: a hall with a bingo game on sale, the cashier Rosa
 * Vargas with her till open at Caja 1 (an enrolled station), thirty cards sold there, and her login on the screen.
 */
import { readdirSync } from 'node:fs'
import { join } from 'node:path'
import type { Page } from 'playwright-core'
import { openPrintFile } from '../../printer/src/printers.ts'
import type { Services } from '../../server/src/services.ts'
import type { Clock } from '../../server/src/shared/clock.ts'
import { hallWithGameOnSale, type HallSetup } from './cashdesk.ts'
import { decodeEscPos } from './escpos-decode.ts'
import { api } from './server.ts'
import { openTill, type Till } from './till.ts'

export const CASHIER_PASSWORD = 'correct horse battery'

/** An injected clock that starts on 14 March 2026 at 18:10 in La Paz and runs with real time from when it is made. */
export function cashierClock(): Clock {
  const started = Date.now()
  return { now: () => new Date(Date.parse('2026-03-14T22:10:00Z') + (Date.now() - started)) }
}

/** Any record id as the server makes them (prefix, underscore, random letters and digits). */
export const RECORD_IDS = /\b(?:dev|u|po|c|cs|v|rf|ses|sh|hall|g)_[a-z0-9]{6,}/gi

/** A screen's text with its runs of white space made one space. */
export const norm = (s: string | null | undefined) => (s ?? '').replace(/\s+/g, ' ').trim()

/** The short code printed under a card's QR (issue 29 point 4). */
export const PRINTED_CODE = /^C[A-Z0-9]{3}(?:-[A-Z0-9]{4}){4}$/

export interface CashierHall {
  setup: HallSetup
  hallId: string
  till: Till
  /** The answer to the sale of 30 cards at Rosa's till (the test asserts it). */
  sold: Awaited<ReturnType<typeof api>>
}

/** The hall, Rosa (a cashier of that hall) with her till open at Caja 1 with a 500 BOB float, and 30 cards sold. */
export async function cashierHall(server: { url: string; services: Services }): Promise<CashierHall> {
  const setup = await hallWithGameOnSale(server.services, { faceValueCents: 500 })
  const hallId = setup.hallId
  await server.services.auth.createUser({
    username: 'rosa',
    displayName: 'Rosa Vargas',
    role: 'cashier',
    password: CASHIER_PASSWORD,
    halls: [hallId],
  })
  const till = await openTill(server.url, server.services, {
    hallId,
    username: 'rosa',
    password: CASHIER_PASSWORD,
    stationName: 'Caja 1',
    floatCents: 50_000,
  })
  const sold = await api(
    server.url,
    'POST',
    `/api/games/${setup.gameId}/sales`,
    { count: 30, ageConfirmed: true },
    till.headers,
  )
  return { setup, hallId, till, sold }
}

/** Opens the cashier screen at Rosa's station and logs her in there, as she does at the start of her shift. */
export async function loginAtCashier(page: Page, url: string, hall: { hallId: string; till: Till }): Promise<void> {
  await page.goto(`${url}/cashier/?hall=${hall.hallId}&device=${encodeURIComponent(hall.till.station.credential)}`)
  await page.getByTestId('shift-login').waitFor()
  await page.getByTestId('shift-user').fill('rosa')
  await page.getByTestId('shift-password').fill(CASHIER_PASSWORD)
  await page.getByTestId('shift-enter').click()
  await page.getByTestId('shift-bar').waitFor()
}

/** The papers the file printer wrote: each card's serial, then the code printed under its QR. */
export function printedCodes(server: { dataDir: string; services: Services }): Map<string, string> {
  const printed = new Map<string, string>()
  const dir = join(server.dataDir, 'prints')
  for (const f of readdirSync(dir).filter((x) => x.endsWith('.escpos.sealed'))) {
    let serial = ''
    for (const line of decodeEscPos(openPrintFile(server.services.sealer, join(dir, f))).lines.map((l) => l.trim())) {
      if (/^[A-Z]-\d{5}$/.test(line)) serial = line
      else if (PRINTED_CODE.test(line) && serial) printed.set(serial, line)
    }
  }
  return printed
}
