/**
 * An enrolled device's credential (`<id>.<secret>`): given once as `?device=` when the screen is set up, then
 * kept in the browser so every later load of any screen of that origin sends it.
 */
const DEVICE_KEY = 'bolillo.device'

type Storage = Pick<globalThis.Storage, 'getItem' | 'setItem'>

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
