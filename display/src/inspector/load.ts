import { useEffect, useState } from 'preact/hooks'
import { ApiError } from '../../../web/http.ts'

/** Loads once per change of `deps`; the error is the server's message in the screen's language, never a code. */
export function useLoad<T>(load: () => Promise<T>, deps: unknown[] = []): { data: T | null; error: string | null } {
  const [state, setState] = useState<{ data: T | null; error: string | null }>({ data: null, error: null })
  useEffect(() => {
    let live = true
    setState({ data: null, error: null })
    load().then(
      (data) => {
        if (live) setState({ data, error: null })
      },
      (err: unknown) => {
        if (live)
          setState({
            data: null,
            error: err instanceof ApiError ? err.message : String(err instanceof Error ? err.message : err),
          })
      },
    )
    return () => {
      live = false
    }
  }, deps)
  return state
}
