/**
 * Issue 14 point 1 for lists and reports that take an optional hall: a person of some halls reads one of them, never
 * every hall's figures. The hall guard already refuses a `hallId` the person does not hold; this fills it in when
 * it is missing (their only hall) or asks for it (several).
 */
import { DomainError } from '../shared/errors.ts'
import { principalOf, type AppContext } from './context.ts'

export function scopedHall(c: AppContext, hallId: string | undefined): string | undefined {
  const who = principalOf(c)
  if (!c.get('authOn') || who.halls === '*') return hallId
  const own = who.halls ?? []
  const hall = hallId ?? (own.length === 1 ? own[0] : undefined)
  if (!hall)
    throw new DomainError('VALIDATION_FAILED', 'name the hall to read: you work in more than one', { field: 'hallId' })
  if (!own.includes(hall))
    throw new DomainError('WRONG_HALL', `hall ${hall} is not one of yours`, { resource: 'hallId' })
  return hall
}
