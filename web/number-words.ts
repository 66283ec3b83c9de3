/**
 * Numbers as words, for the spoken ball call (BNG-38, BNG-39): "el cuarenta y cinco". Pure: no DOM, no speech.
 * Spanish follows the RAE spelling (dieciséis, veintidós, veintitrés, veintiséis; cien / ciento; apocope of
 * "uno" before "mil": veintiún mil, treinta y un mil).
 */

const ES_SMALL = [
  'cero',
  'uno',
  'dos',
  'tres',
  'cuatro',
  'cinco',
  'seis',
  'siete',
  'ocho',
  'nueve',
  'diez',
  'once',
  'doce',
  'trece',
  'catorce',
  'quince',
  'dieciséis',
  'diecisiete',
  'dieciocho',
  'diecinueve',
  'veinte',
  'veintiuno',
  'veintidós',
  'veintitrés',
  'veinticuatro',
  'veinticinco',
  'veintiséis',
  'veintisiete',
  'veintiocho',
  'veintinueve',
] as const
const ES_TENS = ['', '', '', 'treinta', 'cuarenta', 'cincuenta', 'sesenta', 'setenta', 'ochenta', 'noventa'] as const
const ES_HUNDREDS = [
  '',
  'ciento',
  'doscientos',
  'trescientos',
  'cuatrocientos',
  'quinientos',
  'seiscientos',
  'setecientos',
  'ochocientos',
  'novecientos',
] as const

/** Largest number the converters accept. */
export const MAX_WORDS_NUMBER = 999_999

function assertRange(n: number): void {
  if (!Number.isInteger(n) || n < 0 || n > MAX_WORDS_NUMBER)
    throw new RangeError(`expected an integer in 0..${MAX_WORDS_NUMBER}, got ${n}`)
}

/** 0..999 in Spanish words. */
function spanishBelowThousand(n: number): string {
  if (n < 30) return ES_SMALL[n]
  if (n < 100) {
    const unit = n % 10
    return unit === 0 ? ES_TENS[Math.floor(n / 10)] : `${ES_TENS[Math.floor(n / 10)]} y ${ES_SMALL[unit]}`
  }
  if (n === 100) return 'cien'
  const rest = n % 100
  const hundreds = ES_HUNDREDS[Math.floor(n / 100)]
  return rest === 0 ? hundreds : `${hundreds} ${spanishBelowThousand(rest)}`
}

/** "uno" loses its last vowel before a noun or "mil": un, veintiún, treinta y un. */
function apocope(words: string): string {
  if (words === 'uno') return 'un'
  if (words.endsWith('veintiuno')) return `${words.slice(0, -'veintiuno'.length)}veintiún`
  if (words.endsWith(' uno')) return `${words.slice(0, -'uno'.length)}un`
  return words
}

/**
 * A whole number 0..999,999 in Spanish words, lower case.
 * @example spanishWords(45) // "cuarenta y cinco"
 * @example spanishWords(21_000) // "veintiún mil"
 */
export function spanishWords(n: number): string {
  assertRange(n)
  if (n < 1000) return spanishBelowThousand(n)
  const thousands = Math.floor(n / 1000)
  const rest = n % 1000
  const head = thousands === 1 ? 'mil' : `${apocope(spanishBelowThousand(thousands))} mil`
  return rest === 0 ? head : `${head} ${spanishBelowThousand(rest)}`
}

const EN_SMALL = [
  'zero',
  'one',
  'two',
  'three',
  'four',
  'five',
  'six',
  'seven',
  'eight',
  'nine',
  'ten',
  'eleven',
  'twelve',
  'thirteen',
  'fourteen',
  'fifteen',
  'sixteen',
  'seventeen',
  'eighteen',
  'nineteen',
] as const
const EN_TENS = ['', '', 'twenty', 'thirty', 'forty', 'fifty', 'sixty', 'seventy', 'eighty', 'ninety'] as const

function englishBelowThousand(n: number): string {
  if (n < 20) return EN_SMALL[n]
  if (n < 100) return n % 10 === 0 ? EN_TENS[n / 10] : `${EN_TENS[Math.floor(n / 10)]}-${EN_SMALL[n % 10]}`
  const rest = n % 100
  const head = `${EN_SMALL[Math.floor(n / 100)]} hundred`
  return rest === 0 ? head : `${head} and ${englishBelowThousand(rest)}`
}

/**
 * A whole number 0..999,999 in English words (British "and" after hundreds), lower case.
 * @example englishWords(45) // "forty-five"
 */
export function englishWords(n: number): string {
  assertRange(n)
  if (n < 1000) return englishBelowThousand(n)
  const rest = n % 1000
  const head = `${englishBelowThousand(Math.floor(n / 1000))} thousand`
  if (rest === 0) return head
  return rest < 100 ? `${head} and ${englishBelowThousand(rest)}` : `${head} ${englishBelowThousand(rest)}`
}

/** The number in words in the screen's language. */
export function numberWords(n: number, lang: 'es' | 'en'): string {
  return lang === 'en' ? englishWords(n) : spanishWords(n)
}

/**
 * What the caller says for a ball: "el cuarenta y cinco" in Spanish, "forty-five" in English.
 * @example ballCall(1, 'es') // "el uno"
 */
export function ballCall(ball: number, lang: 'es' | 'en'): string {
  return lang === 'en' ? englishWords(ball) : `el ${spanishWords(ball)}`
}
