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
    if (given) store.setItem(DEVICE_KEY, given)
    return given ?? store.getItem(DEVICE_KEY)
  } catch {
    // No storage (private mode, or not a browser): the credential lasts this load only.
    return given
  }
}
