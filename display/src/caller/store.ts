/**
 * The caller console's state: the live game from the hall feed, the hall and session from the API, and what the
 * caller is typing (claim serial, manual ball, confirmations). Actions call the API and report errors in one place.
 */
import type { CashSent } from '../../../web/cash-count.ts'
import { batch, signal } from '@preact/signals'
import type { GameState } from '../../../server/src/bingo/service.ts'
import type { ClaimKind } from '../../../server/src/bingo/game.ts'
import type { SessionMinutes } from '../../../server/src/bingo/minutes.ts'
import {
  ApiError,
  createApi,
  type Annul,
  type CardInfo,
  type ClosedShift,
  type HallInfo,
  type IncidentKind,
  type PrizeInfo,
  type Recount,
  type EquipmentChecklist,
  type SecondPerson,
  type TableTill,
  type TableRefunds,
  type CardRefund,
} from '../../../web/api.ts'
import { tabToken } from '../../../web/credentials.ts'
import type { Lang } from '../../../web/i18n.ts'
import { can as holds, type Me, type Permission } from '../../../web/me.ts'
import { money } from '../../../web/format.ts'
import type { GameFeed } from '../../../web/socket.ts'
import { t } from './texts.ts'
import { parseAmount } from './till.ts'

/** A refusal as the user reads it: the server's message in the screen's language (never its code or detail). */
export interface ShownError {
  code: string
  message: string
}
/** A refusal of the console itself (an amount it cannot read), in the screen's language. */
class ConsoleRefusal extends Error {}
export interface ClaimResult {
  kind: ClaimKind
  serial: string
  ok: boolean
  reason?: string
  card: CardInfo | null
  called: number[]
}
export interface Confirmation {
  title: string
  body: string[]
  confirmLabel: string
  danger?: boolean
  /** What the action needs: a role without it confirms with a jefe's username and password (X-Bolillo-Second-Person). */
  permission?: Permission
  run: (second?: SecondPerson) => Promise<void>
}
/** How the console offers an action: the role's own, authorised by a jefe on this console, or not at all. */
export type Offer = 'own' | 'jefe' | null

const NAME_KEY = 'bolillo.caller.name'
// The session token lives for the tab only: closing the console logs out.
const kept = tabToken('caller')

function storedName(): string {
  try {
    return localStorage.getItem(NAME_KEY) ?? ''
  } catch {
    return ''
  }
}

/**
 * `device` is the credential of the enrolled cashier station this console is (`?device=`, web/credentials.ts): sent while
 * nobody is logged in, and with the login, so the person's session is bound to the station (issue 13).
 */
export function createCallerStore(feed: GameFeed, hallId: string, lang: Lang, base = '', device: string | null = null) {
  const token = signal<string | null>(kept.get())
  /** Who is using the console and what the role may do (GET /api/me); null until the server has answered. */
  const me = signal<Me | null>(null)
  /** The server refused an anonymous request: show the login form. */
  const needLogin = signal(false)
  const api = createApi(lang, { base, token: () => token.value, device })
  /** Issue 13: the station this console is, the person at it and the table's open shift (null: not asked). */
  const till = signal<TableTill | null>(null)
  /** The last shift closed at this console, with the difference the server counted. */
  const closedShift = signal<ClosedShift | null>(null)
  const hall = signal<HallInfo | null>(null)
  const session = signal<SessionMinutes | null>(null)
  const lastSessionId = signal<string | null>(null)
  const error = signal<ShownError | null>(null)
  const busy = signal<string | null>(null)
  const claimKind = signal<ClaimKind>('line')
  const claimSerial = signal('')
  const claimResult = signal<ClaimResult | null>(null)
  /** Issue 29: the serials a number alone matched in several series (the caller picks one). */
  const claimChoices = signal<string[] | null>(null)
  const manualBall = signal('')
  const confirmation = signal<Confirmation | null>(null)
  const prizes = signal<PrizeInfo[]>([])
  const minutes = signal<SessionMinutes | null>(null)
  const minutesOpen = signal(false)
  const operator = signal(storedName() || (lang === 'en' ? 'Floor manager' : 'Jefe de Mesa'))
  const claimFocus = signal(0)
  // A jefe's credential typed into the confirmation dialog; the password is dropped after every attempt.
  const secondUser = signal('')
  const secondPassword = signal('')
  /**
   * Issue 29 point 1 (BNG-86): the annulled game whose cards this table refunds as players hand them back (kept
   * when the next game is announced), its cards as the server lists them, and the last card refunded here.
   */
  const refundGame = signal<{ gameId: string; gameNo: number } | null>(null)
  const tableRefunds = signal<TableRefunds | null>(null)
  const lastRefund = signal<CardRefund | null>(null)

  const game = (): GameState | null => feed.state.value

  function showError(err: unknown) {
    if (err instanceof ApiError && err.code === 'UNAUTHORIZED') {
      // An expired or missing session: forget the token and ask for a login.
      if (token.value) {
        token.value = null
        kept.set(null)
        me.value = null
        void loadMe()
      }
      needLogin.value = true
    }
    // Only the message, in the screen's language: codes, permission names and server details stay off screen.
    if (err instanceof ApiError) error.value = { code: err.code, message: err.message }
    else if (err instanceof ConsoleRefusal) error.value = { code: 'CONSOLE', message: err.message }
    else
      error.value = {
        code: 'ERROR',
        message: lang === 'en' ? 'Something went wrong; nothing was done.' : 'Algo falló; no se hizo nada.',
      }
  }

  const can = (permission: Permission): boolean => holds(me.value, permission)
  /**
   * Issue 14 point 7: the role's own actions, and, on a console whose person works the table (may draw), the
   * jefe's actions authorised on the spot. A read-only role (the inspector) is offered neither.
   */
  function offer(permission: Permission): Offer {
    if (can(permission)) return 'own'
    const m = me.value
    return m && m.authOn && m.kind === 'person' && can('game.draw') ? 'jefe' : null
  }

  /** Runs one action: one at a time, errors shown, hall and session refreshed afterwards. */
  async function act(name: string, fn: () => Promise<void>): Promise<boolean> {
    if (busy.value) return false
    busy.value = name
    try {
      await fn()
      error.value = null
      return true
    } catch (err) {
      showError(err)
      return false
    } finally {
      busy.value = null
      void refreshHall()
    }
  }

  async function refreshHall(): Promise<void> {
    try {
      const h = await api.hall(hallId)
      const sessionId = h.openSessionId ?? lastSessionId.value
      // The session summary is for roles that read the minutes; a caller without that right goes on without it.
      // The session summary is read only by roles that read the minutes: a locutor's console never asks for it.
      const s = sessionId && can('minutes.read') ? await api.session(sessionId) : null
      batch(() => {
        hall.value = h
        session.value = s
        if (h.openSessionId) lastSessionId.value = h.openSessionId
      })
    } catch (err) {
      showError(err)
    }
  }

  async function refreshPrizes(): Promise<void> {
    const g = game()
    if (!g) {
      prizes.value = []
      return
    }
    try {
      prizes.value = (await api.prizes(g.gameId)).prizes
    } catch {
      // The prize list is a convenience; the state on screen stays right without it.
    }
  }

  async function refreshMinutes(): Promise<void> {
    const id = hall.value?.openSessionId ?? lastSessionId.value ?? game()?.sessionId ?? null
    if (!id || !can('minutes.read')) return
    try {
      minutes.value = await api.minutes(id)
    } catch (err) {
      showError(err)
    }
  }

  const gameId = () => {
    const g = game()
    if (!g) throw new ApiError('NO_GAME', lang === 'en' ? 'There is no game.' : 'No hay partida.', 0)
    return g.gameId
  }

  function ask(c: Confirmation) {
    batch(() => {
      error.value = null
      confirmation.value = c
    })
  }

  /**
   * Asks the server who is at the console; with authentication on and no person logged in (nobody, or only the
   * station's own credential), shows the login.
   */
  async function loadMe(): Promise<void> {
    try {
      const m = await api.whoAmI()
      batch(() => {
        me.value = m
        needLogin.value = m.authOn && m.kind !== 'person'
      })
    } catch (err) {
      showError(err)
    }
    await refreshTill()
  }

  /** Issue 13: the table's shift, for a role that sells (the server answers who is at this station). */
  async function refreshTill(): Promise<void> {
    const m = me.value
    if (!m || !m.authOn || m.kind !== 'person' || !can('game.sell') || !can('shift.current')) {
      till.value = null
      return
    }
    try {
      till.value = await api.currentShift()
    } catch {
      till.value = null
    }
  }

  async function confirm(): Promise<void> {
    const c = confirmation.value
    // While another request is in flight the dialog stays open: the confirmed action is never dropped.
    if (!c || busy.value) return
    const authorised = c.permission !== undefined && offer(c.permission) === 'jefe'
    const second = authorised ? { username: secondUser.value.trim(), password: secondPassword.value } : undefined
    if (authorised && (!second!.username || !second!.password)) return
    confirmation.value = null
    secondPassword.value = ''
    const ok = await act('confirm', () => c.run(second))
    // A wrong or missing authorisation keeps the dialog, so the jefe can type again; the locutor stays logged in.
    if (!ok && authorised) confirmation.value = c
    if (ok) secondUser.value = ''
  }

  return {
    api,
    token,
    me,
    needLogin,
    loadMe,
    can,
    offer,
    secondUser,
    secondPassword,
    till,
    closedShift,
    refreshTill,
    async login(username: string, password: string): Promise<boolean> {
      try {
        const r = await api.login(username, password)
        batch(() => {
          token.value = r.token
          needLogin.value = false
          error.value = null
          if (!storedName()) operator.value = r.user.displayName
        })
        kept.set(r.token)
        await loadMe()
        await refreshHall()
        return true
      } catch (err) {
        showError(err)
        return false
      }
    },
    async logout(): Promise<void> {
      await api.logout().catch(() => undefined)
      batch(() => {
        token.value = null
        me.value = null
        needLogin.value = true
        session.value = null
        till.value = null
        closedShift.value = null
      })
      kept.set(null)
      await loadMe()
    },
    async openMinutesPdf(sessionId: string): Promise<void> {
      try {
        const blob = await api.minutesPdf(sessionId)
        window.open(URL.createObjectURL(blob), '_blank', 'noopener')
      } catch (err) {
        showError(err)
      }
    },
    hall,
    session,
    lastSessionId,
    error,
    busy,
    claimKind,
    claimSerial,
    claimResult,
    claimChoices,
    manualBall,
    confirmation,
    prizes,
    minutes,
    minutesOpen,
    operator,
    claimFocus,
    game,
    refreshHall,
    refreshPrizes,
    refreshMinutes,
    ask,
    showError,
    clearError() {
      error.value = null
    },
    /** A refusal of the console itself, shown like the server's (in the screen's language). */
    refuse(message: string) {
      error.value = { code: 'CONSOLE', message }
    },
    /**
     * Runs an action the console offers: straight away for the role's own, or through the confirmation dialog
     * where a jefe authorises it with her username and password.
     */
    perform(
      permission: Permission,
      name: string,
      confirmation_: Omit<Confirmation, 'permission' | 'run'>,
      run: (second?: SecondPerson) => Promise<void>,
    ): void {
      const how = offer(permission)
      if (how === 'own') void act(name, () => run())
      else if (how === 'jefe') ask({ ...confirmation_, permission, run })
    },
    setOperator(name: string) {
      operator.value = name
      try {
        localStorage.setItem(NAME_KEY, name)
      } catch {
        /* not remembered */
      }
    },
    confirm,
    cancel() {
      batch(() => {
        confirmation.value = null
        secondUser.value = ''
        secondPassword.value = ''
      })
    },

    openSession: (recount: Recount, checklist: EquipmentChecklist, second?: SecondPerson) =>
      api.openSession(hallId, recount, checklist, second).then(() => undefined),
    lastGame: (sessionId: string, second?: SecondPerson) => api.lastGame(sessionId, second).then(() => undefined),
    closeSession: async (sessionId: string, recount?: Recount, second?: SecondPerson) => {
      await api.closeSession(sessionId, recount, second)
      lastSessionId.value = sessionId
      if (can('minutes.read')) {
        minutesOpen.value = true
        await refreshMinutes()
      }
    },
    announce: async (sessionId: string, seriesIds: string[], drawSource: 'rng' | 'manual', second?: SecondPerson) => {
      await api.announce(sessionId, seriesIds, drawSource, second)
      claimResult.value = null
      await feed.refresh()
    },
    refundGame,
    tableRefunds,
    lastRefund,
    /** The annulled game's cards sold at this table (a refusal leaves the list as it was). */
    async loadTableRefunds(game: { gameId: string; gameNo: number }): Promise<void> {
      if (refundGame.value?.gameId !== game.gameId)
        batch(() => {
          refundGame.value = game
          tableRefunds.value = null
          lastRefund.value = null
        })
      try {
        tableRefunds.value = await api.tableRefunds(game.gameId)
      } catch (err) {
        showError(err)
      }
    },
    /**
     * A card handed back to the table, read by the scanner (its signed code): refunded once, out of this shift. Run
     * from the confirmation (its refusal is shown there); the list and the till are read again either way.
     */
    async refundTableCard(code: string): Promise<void> {
      try {
        lastRefund.value = await api.refundCard(code.trim())
      } finally {
        const g = refundGame.value
        if (g) tableRefunds.value = await api.tableRefunds(g.gameId).catch(() => tableRefunds.value)
        await refreshTill()
      }
    },
    openSales: () =>
      act('openSales', async () => {
        await api.openSales(gameId())
      }),
    sell: (count: number, cash?: CashSent, buyerDocument?: string, ageConfirmed = false, picks?: number[][]) =>
      act('sell', async () => {
        await api.sell(gameId(), count, 'caller', cash, buyerDocument, ageConfirmed, picks)
      }).then(async (ok) => {
        await refreshTill()
        return ok
      }),
    /** Opens the person's table shift at this station with the float counted into the drawer. */
    openShift: (floatText: string) =>
      act('openShift', async () => {
        const cents = parseAmount(floatText)
        if (Number.isNaN(cents)) throw new ConsoleRefusal(t(lang, 'badAmount'))
        await api.openShift(cents)
        closedShift.value = null
        await refreshTill()
      }),
    /** Closes it with the drawer counted (arqueo); the server gives the difference to the centavo. */
    closeShift: (countedText: string, note: string) =>
      act('closeShift', async () => {
        const cents = parseAmount(countedText)
        if (Number.isNaN(cents)) throw new ConsoleRefusal(t(lang, 'badAmount'))
        try {
          closedShift.value = await api.closeShift(cents, note.trim() || undefined)
        } catch (err) {
          // A drawer that does not balance closes only with a note: say by how much, to the centavo, as the server counted.
          const d =
            err instanceof ApiError && err.code === 'SHIFT_COUNT_DIFFERS'
              ? (err.details as { field?: string; differenceCents?: number } | undefined)
              : undefined
          if (d?.field === 'note' && typeof d.differenceCents === 'number') {
            throw new ConsoleRefusal(
              t(lang, 'tillNoteNeeded').replace(
                '{amount}',
                money(d.differenceCents, till.value?.shift?.currency ?? hall.value?.hall.currency ?? 'BOB', lang),
              ),
            )
          }
          throw err
        }
        await refreshTill()
      }),
    closeSales: (second?: SecondPerson) => api.closeSales(gameId(), second).then(() => undefined),
    typeBeacon: (signature: string) =>
      act('beacon', async () => {
        await api.beacon(gameId(), signature.trim())
      }),
    draw: () =>
      act('draw', async () => {
        await api.draw(gameId())
      }),
    enterBall: () => {
      const n = Number(manualBall.value)
      if (!manualBall.value || !Number.isInteger(n)) return Promise.resolve(false)
      return act('enterBall', async () => {
        await api.enterBall(gameId(), n)
        manualBall.value = ''
      })
    },
    /**
     * The serial as heard ("41", "a41", "A 41", "A-00041"): the server finds the card in the game's series; when the
     * number is in several it answers which, and the panel offers them (`serial` given: the one picked).
     */
    claim: (picked?: string) =>
      act('claim', async () => {
        const serial = (picked ?? claimSerial.value).trim().toUpperCase()
        if (!serial) return
        const kind = claimKind.value
        const id = gameId()
        claimChoices.value = null
        let r
        try {
          r = await api.claim(id, kind, serial)
        } catch (err) {
          const serials =
            err instanceof ApiError && err.code === 'SERIAL_AMBIGUOUS'
              ? (err.details as { serials?: unknown } | undefined)?.serials
              : undefined
          if (Array.isArray(serials)) claimChoices.value = serials.filter((x): x is string => typeof x === 'string')
          // A number misheard in the noise of the hall: the caller reads what to do, not "card or ticket".
          if (err instanceof ApiError && err.code === 'TICKET_NOT_FOUND')
            throw new ConsoleRefusal(t(lang, 'claimNotSold').replace('{serial}', serial))
          throw err
        }
        const card = await api.card(id, serial).catch(() => null)
        claimResult.value = {
          kind,
          serial: card?.serial ?? serial,
          ok: r.ok,
          reason: r.reason,
          card,
          called: r.state.balls,
        }
        claimSerial.value = ''
      }),
    closeWindow: (second?: SecondPerson) =>
      api.closeWindow(gameId(), second).then(() => {
        claimResult.value = null
      }),
    // Play stops and the serial field takes the keyboard; L or B typed first there still choose the kind (issue 29).
    stopForClaim: () =>
      act('stopForClaim', async () => {
        await api.stopForClaim(gameId())
        claimFocus.value++
      }),
    resumePlay: () =>
      act('resumePlay', async () => {
        await api.resumePlay(gameId())
        claimResult.value = null
      }),
    incident: (kind: IncidentKind, note: string, correctedBall?: number, annul?: Annul, second?: SecondPerson) =>
      api.incident(gameId(), kind, note.trim() || undefined, correctedBall, annul, second).then(() => undefined),
    resume: (second?: SecondPerson) => api.resume(gameId(), second).then(() => undefined),
    /** BNG-71: a prize is paid against its own card's code, scanned or typed (the card's other prizes go with it). */
    pay: async (prizeId: string, code: string, second?: SecondPerson) => {
      await api.pay(prizeId, code.trim(), operator.value.trim() || 'Jefe de Mesa', second)
      await refreshPrizes()
      await refreshTill()
    },
  }
}

export type CallerStore = ReturnType<typeof createCallerStore>
