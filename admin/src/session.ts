/**
 * Who is logged in to the back office and what they may do. The token is kept for this tab only (web/credentials.ts).
 * Sections are chosen by permission: from `GET /api/me` where the server offers it, else derived from the role
 * with the server's own table (access/permissions.ts), so a renamed or new role needs no change here.
 */
import { signal } from '@preact/signals'
import { tabToken } from '../../web/credentials.ts'
import { createRequest, type ApiRequest } from '../../web/http.ts'
import type { Lang } from '../../web/i18n.ts'
import { isAllowed, permissions, type Permission, type Role } from '../../server/src/access/permissions.ts'

const kept = tabToken('admin')
const LANG_KEY = 'bolillo.admin.lang'

export interface Me {
  id: string
  name: string
  role: string
  roleLabel?: string
  permissions: Set<string>
  /** The hall's clock (issue 29): every time in the back office is shown in this zone, with the zone named. */
  timeZone?: string | null
}

/** The language chosen last on this browser (every tab). */
function storedLang(): string | null {
  try {
    return localStorage.getItem(LANG_KEY)
  } catch {
    return null
  }
}
function keepLang(value: Lang) {
  try {
    localStorage.setItem(LANG_KEY, value)
  } catch {
    // no storage: it lasts this load only
  }
}

function initialLang(): Lang {
  const q = new URLSearchParams(location.search).get('lang')
  if (q) return q.toLowerCase().startsWith('en') ? 'en' : 'es'
  return storedLang() === 'en' ? 'en' : 'es'
}

export const lang = signal<Lang>(initialLang())
export const token = signal<string | null>(kept.get())
export const me = signal<Me | null>(null)

export function setLang(l: Lang) {
  lang.value = l
  keepLang(l)
  document.documentElement.lang = l
}

export const api: ApiRequest = createRequest({ lang: () => lang.value, token: () => token.value })

export function permissionsOfRole(role: string): Set<string> {
  return new Set(
    (Object.keys(permissions) as Permission[]).filter((p) => {
      const roles = permissions[p] as readonly string[]
      return !roles.includes('public') && isAllowed(p, role as Role)
    }),
  )
}

type MeAnswer = {
  id?: string
  name?: string
  roleLabel?: string
  displayName?: string
  role?: string
  permissions?: string[]
  timeZone?: string | null
  user?: { id: string; displayName?: string; role: string }
}

/** Who the token belongs to: `/api/me` (with permissions) if the server has it, `/api/auth/me` otherwise. */
export async function loadMe(): Promise<Me | null> {
  let answer: MeAnswer | null = null
  try {
    answer = await api<MeAnswer>('GET', '/api/me')
  } catch {
    answer = null
  }
  if (!answer || !(answer.role || answer.user?.role)) answer = await api<MeAnswer>('GET', '/api/auth/me')
  const role = answer.role ?? answer.user?.role ?? ''
  if (!role || role === 'public' || (answer as { kind?: string }).kind === 'anonymous') return null
  const perms = Array.isArray(answer.permissions) ? new Set(answer.permissions) : permissionsOfRole(role)
  return {
    id: answer.id ?? answer.user?.id ?? '',
    name: answer.name ?? answer.displayName ?? answer.user?.displayName ?? '',
    role,
    roleLabel: answer.roleLabel,
    permissions: perms,
    timeZone: answer.timeZone ?? null,
  }
}

/** Set when the person must choose a new password before anything else (a password someone else set). */
export const mustChangePassword = signal(false)

export async function login(username: string, password: string) {
  const r = await api<{ token: string; user?: { mustChangePassword?: boolean } }>('POST', '/api/auth/login', {
    username,
    password,
  })
  token.value = r.token
  kept.set(r.token)
  mustChangePassword.value = Boolean(r.user?.mustChangePassword)
  if (!mustChangePassword.value) me.value = await loadMe()
}

export async function changePassword(current: string, next: string) {
  await api('POST', '/api/auth/password', { current, password: next })
  mustChangePassword.value = false
  me.value = await loadMe()
}

export async function logout() {
  await api('POST', '/api/auth/logout').catch(() => undefined)
  token.value = null
  me.value = null
  kept.set(null)
}

export function can(...needed: string[]): boolean {
  const m = me.value
  return !!m && needed.some((p) => m.permissions.has(p))
}
