/**
 * A refused plan in the form's words (issue 29 point 8): the server names each problem by field and rule; the form
 * marks those fields and says which to check, by their labels, never the fields' codes. `bad` is null when the
 * server named no field (the refusal's own message is shown).
 */
import { ApiError } from '../../../web/http.ts'
import { errorText } from '../ui.tsx'
import { lx } from './lottery-texts.ts'

export function planRefusal<K extends string>(
  err: unknown,
  fields: readonly K[],
  serverField: Record<string, K>,
  label: (k: K) => string,
): { bad: Set<K> | null; message: string } {
  const d = err instanceof ApiError ? (err.details as { problems?: Array<{ field: string; rule?: string }> }) : null
  const problems = d?.problems ?? []
  if (!problems.length) return { bad: null, message: errorText(err) }
  const keys = problems.map(
    (p) => serverField[p.field] ?? (fields as readonly string[]).find((k) => k === p.field.split('.')[0]) ?? null,
  ) as Array<K | null>
  const names = problems.map((p, i) => {
    const k = keys[i]
    const name = k ? label(k) : p.field.startsWith('prizes') ? lx('pf_prizes') : lx('otherField')
    return p.rule ? `${name} (${p.rule})` : name
  })
  return {
    bad: new Set(keys.filter((k): k is K => k !== null)),
    message: lx('checkFields', { fields: [...new Set(names)].join(', ') }),
  }
}
