/**
 * The one place the screens keep what they authenticate with (web/http.ts sends it):
 * - an enrolled device's credential (`<id>.<secret>`): given once as `?device=` when the screen is set up, then
 *   kept in the browser so every later load of any screen of that origin sends it;
 * - the session token of the person logged in at a screen: kept for the tab only (sessionStorage), so closing the
 *   tab logs out, one key per screen (a login at the back office does not log the same tab in at the caller).
 */
const DEVICE_KEY = 'bolillo.device'

type Storage = Pick<globalThis.Storage, 'getItem' | 'setItem'>
type TokenStorage = Pick<globalThis.Storage, 'getItem' | 'setItem' | 'removeItem'>

/** Keeps `?device=<credential>` for the next loads and returns the stored one. */
export function deviceCredential(search: string, storage?: Storage): string | null {
  const given = new URLSearchParams(search).get('device')
  try {
    const store = storage ?? localStorage
    if (given) {
      store.setItem(DEVICE_KEY, given)
      // Kept: the next load needs it no more in the address.
      forgetInAddressBar()
    }
    return given ?? store.getItem(DEVICE_KEY)
  } catch {
    // No storage (private mode, or not a browser): the credential lasts this load only, so it stays in the address.
    return given
  }
}

/**
 * Issue 29 "Also": the credential does not stay in the address bar (where anyone passing, a screenshot or the
 * browser's history would keep it): once read, the address is rewritten without it, nothing else changed.
 */
function forgetInAddressBar(): void {
  if (typeof location === 'undefined' || typeof history === 'undefined' || typeof URL === 'undefined') return
  const url = new URL(location.href)
  url.searchParams.delete('device')
  history.replaceState(history.state, '', url.pathname + url.search + url.hash)
}

/** The screens a person logs in at; each keeps its token under its own key. */
export type StaffScreen = 'admin' | 'caller' | 'cashier' | 'inspector'

/** A logged-in person's session token for this tab: read at each request, kept on login, forgotten on logout. */
export interface TabToken {
  get(): string | null
  set(token: string | null): void
}

export function tabToken(screen: StaffScreen, storage?: TokenStorage): TabToken {
  const key = `bolillo.${screen}.token`
  const store = (): TokenStorage => storage ?? sessionStorage
  return {
    get() {
      try {
        return store().getItem(key)
      } catch {
        return null
      }
    },
    set(token) {
      try {
        if (token) store().setItem(key, token)
        else store().removeItem(key)
      } catch {
        // No storage (private mode): the login lasts this load only.
      }
    },
  }
}
