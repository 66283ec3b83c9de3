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
    const name = k
      ? label(k)
      : /^(prizes|categories)\b/.test(p.field)
        ? lx('pf_prizes')
        : /^(draws|winnersStayIn)\b/.test(p.field)
          ? lx('sv_draws')
          : p.field === 'points.hallId'
            ? lx('pt_hall')
            : /^points\.figures\b/.test(p.field)
              ? lx('pt_objects')
              : /^points\b/.test(p.field)
                ? lx('pt_title')
                : lx('otherField')
    return p.rule ? `${name} (${p.rule})` : name
  })
  const whys = [...new Set(problems.map(why).filter((x): x is string => x !== null))]
  return {
    bad: new Set(keys.filter((k): k is K => k !== null)),
    message: [lx('checkFields', { fields: [...new Set(names)].join(', ') }), ...whys].join(' '),
  }
}

/**
 * What the rule asks, in the screen's language, for the refusals a director can fix from the form (LOT-22, PRM-11,
 * PRM-9, PRM-2); the server's own sentence is English and names fields by code, so it is never shown.
 */
function why(p: { field: string; rule?: string }): string | null {
  const last = p.field.split('.').pop() ?? ''
  if (p.rule === 'LOT-22' && last === 'class') return lx('why_realEstate')
  if (last === 'source' && (p.rule === 'PRM-11' || p.rule === 'LOT-22')) return lx('why_source')
  if (p.rule === 'LOT-22' && last === 'invoiceRef') return lx('why_backing')
  // PRM-2: the tómbola by points (the server's sentence names the sums in English).
  if (p.rule === 'PRM-2' && p.field === 'points.tiers') return lx('why_pointsTiers')
  if (p.rule === 'PRM-2' && p.field.startsWith('points.figures')) return lx('why_pointsFigure')
  if (p.field === 'points.hallId') return lx('why_pointsHall')
  if (p.rule !== 'PRM-9') return null
  if (p.field === 'winnersStayIn') return lx('why_winners')
  if (p.field === 'claimDeadline') return lx('why_claimAfterLast')
  if (last === 'drawAt') return lx('why_drawOrder')
  if (last === 'prizeCodes' || p.field === 'draws') return lx('why_drawPrizes')
  return null
}
