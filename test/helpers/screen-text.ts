import { permissions } from '../../server/src/access/permissions.ts'

/**
 * What no screen may show a user (issue 14 point 7): an English error code (FORBIDDEN, BALL_ALREADY_DRAWN), a
 * permission name (game.window), a role code (floor_manager) or an internal id (u_…, dev_…, ses_…). Returns what
 * it found in `text`, empty when the screen is clean.
 */
export function screenLeaks(text: string): string[] {
  const found: string[] = []
  for (const code of text.match(/\b[A-Z]{2,}(?:_[A-Z]+)+\b|\bFORBIDDEN\b|\bUNAUTHORIZED\b|\bHTTP_\d{3}\b/g) ?? [])
    found.push(code)
  for (const p of Object.keys(permissions))
    if (new RegExp(`(^|[^\\w.])${p.replace('.', '\\.')}($|[^\\w.])`).test(text)) found.push(p)
  for (const role of [
    'floor_manager',
    'cashier_station',
    '(caller)',
    '(auditor)',
    '(director)',
    '(cashier)',
    '(kiosk)',
  ])
    if (text.includes(role)) found.push(role)
  for (const id of text.match(/\b(?:u|dev|ses|sess|g|game|pz|hall|st|stn)_[0-9a-f]{8,}\b/g) ?? []) found.push(id)
  return found
}
