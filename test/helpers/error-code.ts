import { DomainError } from '../../server/src/shared/errors.ts'

/** The DomainError code a promise fails with, or 'OK'; any other error is rethrown (a real failure). */
export async function code(p: Promise<unknown>): Promise<string> {
  try {
    await p
    return 'OK'
  } catch (err) {
    if (err instanceof DomainError) return err.code
    throw err
  }
}
