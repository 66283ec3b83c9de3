/**
 * The inspector's screen state (issue 14 point 7): who is logged in (GET /api/me) and the read-only API calls.
 * Nothing here writes: every call is a GET, and the role's permissions decide which sections show.
 */
import { batch, signal } from '@preact/signals'
import { tabToken } from '../../../web/credentials.ts'
import { ApiError, createRequest } from '../../../web/http.ts'
import type { Lang } from '../../../web/i18n.ts'
import { formatInZone } from '../../../server/src/shared/time-zone.ts'
import { can, fetchMe, type Me, type Permission } from '../../../web/me.ts'

// The session token lives for the tab only: closing the screen logs out.
const kept = tabToken('inspector')

export interface JournalRecord {
  seq: number
  at: string
  type: string
  scope: string
  payload: Record<string, unknown>
}
export interface Checkpoint {
  seq: number
  hash: string
  at: string
  keyId: string
  reason?: string
}

export function createInspectorStore(lang: Lang) {
  const token = signal<string | null>(kept.get())
  const me = signal<Me | null>(null)
  /** The last refusal, as the server words it in the screen's language (never its code). */
  const error = signal<string | null>(null)
  const request = createRequest({ lang: () => lang, token: () => token.value })

  function show(err: unknown): void {
    if (err instanceof ApiError && err.code === 'UNAUTHORIZED' && token.value) {
      token.value = null
      kept.set(null)
      void loadMe()
    }
    error.value = err instanceof ApiError ? err.message : lang === 'en' ? 'Something went wrong.' : 'Algo falló.'
  }

  async function loadMe(): Promise<void> {
    try {
      me.value = await fetchMe(request)
    } catch (err) {
      show(err)
    }
  }

  /** Every journal record, a page at a time (sessions are found from their opening records). */
  async function journal(): Promise<JournalRecord[]> {
    const out: JournalRecord[] = []
    for (let from = 0; out.length < 50_000;) {
      const page = (await request<{ records: JournalRecord[] }>('GET', `/api/journal?from=${from}&limit=1000`)).records
      out.push(...page)
      if (page.length < 1000) break
      from = page[page.length - 1].seq + 1
    }
    return out
  }

  return {
    me,
    /**
     * A time on the hall's clock with its zone named (issue 29 "one clock"): `zone` when the answer names one, else
     * the hall's from /api/me; never the browser's clock.
     */
    when: (iso: string | null | undefined, zone?: string | null): string =>
      formatInZone(iso, zone || me.value?.timeZone || 'UTC', 'seconds', true),
    error,
    request,
    loadMe,
    show,
    journal,
    can: (p: Permission) => can(me.value, p),
    loggedIn: () => me.value !== null && me.value.kind !== 'anonymous',
    async login(username: string, password: string): Promise<void> {
      try {
        const r = await request<{ token: string }>('POST', '/api/auth/login', { username, password })
        batch(() => {
          token.value = r.token
          error.value = null
        })
        kept.set(r.token)
        await loadMe()
      } catch (err) {
        show(err)
      }
    },
    async logout(): Promise<void> {
      await request('POST', '/api/auth/logout').catch(() => undefined)
      token.value = null
      kept.set(null)
      await loadMe()
    },
    async checkpoints(): Promise<{ list: Checkpoint[]; blob: Blob }> {
      const blob = await request.blob('/api/journal/checkpoints')
      const list = (await blob.text())
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l) as Checkpoint)
      return { list, blob }
    },
    /** Opens a file the server answers (PDF, JSON) in a new tab: a plain link cannot carry the session token. */
    async open(path: string, filename: string): Promise<void> {
      try {
        const blob = await request.blob(path)
        const a = document.createElement('a')
        a.href = URL.createObjectURL(blob)
        a.download = filename
        a.click()
      } catch (err) {
        show(err)
      }
    },
  }
}

export type InspectorStore = ReturnType<typeof createInspectorStore>
