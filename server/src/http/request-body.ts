/**
 * Issue 23 point 3: a request body is read once, the same way, for the guards and the route alike. The hall guard
 * and the exclusion check once read only bodies labelled JSON while every route parsed its text whatever the label,
 * so a `text/plain` body reached the use case unseen by both. Now a body that is not labelled JSON is refused
 * (UNSUPPORTED_MEDIA_TYPE) before anyone reads it, a malformed one is VALIDATION_FAILED, and the one parsed value
 * is what every reader gets (AppEnv `body`).
 */
import { DomainError } from '../shared/errors.ts'

/** Methods whose body is read; any other method's body is ignored (a GET reads its query). */
const WITH_BODY: ReadonlySet<string> = new Set(['POST', 'PUT', 'PATCH', 'DELETE'])

/** Whether a request of this method has its body read at all. */
export function hasBody(method: string): boolean {
  return WITH_BODY.has(method.toUpperCase())
}

/** application/json, or a structured +json type (application/merge-patch+json), whatever its parameters. */
export function isJsonMediaType(contentType: string | undefined | null): boolean {
  const type = (contentType ?? '').split(';', 1)[0].trim().toLowerCase()
  return type === 'application/json' || /^[a-z0-9!#$&^_.-]+\/[a-z0-9!#$&^_.-]+\+json$/.test(type)
}

/**
 * The request's body as the one value every reader gets: undefined when there is none (an empty or blank body is
 * allowed under any content type), the parsed JSON otherwise. Throws UNSUPPORTED_MEDIA_TYPE for a body that is not
 * labelled JSON and VALIDATION_FAILED for one that is not valid JSON.
 */
export function parseRequestBody(method: string, contentType: string | undefined | null, text: string): unknown {
  if (!hasBody(method) || !text.trim()) return undefined
  if (!isJsonMediaType(contentType)) {
    throw new DomainError(
      'UNSUPPORTED_MEDIA_TYPE',
      `a request body is JSON (content-type application/json), not ${(contentType ?? '').slice(0, 80) || 'unlabelled'}`,
      { contentType: (contentType ?? '').slice(0, 80) },
    )
  }
  try {
    return JSON.parse(text)
  } catch {
    throw new DomainError('VALIDATION_FAILED', 'the body is not valid JSON')
  }
}
