import { describe, expect, it } from 'vitest'
import { DomainError } from '../shared/errors.ts'
import { isJsonMediaType, parseRequestBody } from './request-body.ts'

const codeOf = (f: () => unknown): string | null => {
  try {
    f()
    return null
  } catch (err) {
    return err instanceof DomainError ? err.code : String(err)
  }
}

describe('request body, parsed once (issue 23 point 3)', () => {
  it('parses a JSON body labelled application/json or a +json type, whatever the parameters and case', () => {
    expect(parseRequestBody('POST', 'application/json', '{"code":"x"}')).toEqual({ code: 'x' })
    expect(parseRequestBody('PUT', 'Application/JSON; charset=utf-8', '[1,2]')).toEqual([1, 2])
    expect(parseRequestBody('PATCH', 'application/merge-patch+json', '{"a":null}')).toEqual({ a: null })
    expect(parseRequestBody('DELETE', 'application/json', 'null')).toBeNull()
  })

  it('refuses a non-empty body not labelled JSON with UNSUPPORTED_MEDIA_TYPE, valid JSON or not', () => {
    for (const type of [
      'text/plain',
      'text/plain; charset=utf-8',
      'application/x-www-form-urlencoded',
      'multipart/form-data; boundary=x',
      '',
      undefined,
      'application/jsonp',
      'text/json-ish',
      'json',
    ]) {
      expect(
        codeOf(() => parseRequestBody('POST', type, '{"code":"BLL1.V.x.y","stationId":"s"}')),
        String(type),
      ).toBe('UNSUPPORTED_MEDIA_TYPE')
    }
    expect(codeOf(() => parseRequestBody('DELETE', 'text/plain', 'x'))).toBe('UNSUPPORTED_MEDIA_TYPE')
  })

  it('answers malformed JSON with VALIDATION_FAILED', () => {
    for (const text of ['{', '{"count": ', "{'a':1}", 'undefined', '\uFFFF\uD800']) {
      expect(
        codeOf(() => parseRequestBody('POST', 'application/json', text)),
        text,
      ).toBe('VALIDATION_FAILED')
    }
  })

  it('allows an empty or blank body under any content type, and never reads a GET body', () => {
    for (const type of ['text/plain', '', undefined, 'application/json']) {
      expect(parseRequestBody('POST', type, '')).toBeUndefined()
      expect(parseRequestBody('POST', type, ' \n\t')).toBeUndefined()
    }
    expect(parseRequestBody('GET', 'text/plain', 'anything')).toBeUndefined()
    expect(parseRequestBody('HEAD', undefined, '{')).toBeUndefined()
  })

  it('tells JSON media types from the rest', () => {
    expect(isJsonMediaType('application/json')).toBe(true)
    expect(isJsonMediaType('application/problem+json; charset=utf-8')).toBe(true)
    expect(isJsonMediaType('text/plain')).toBe(false)
    expect(isJsonMediaType('application/json-seq')).toBe(false)
    expect(isJsonMediaType(null)).toBe(false)
  })
})
