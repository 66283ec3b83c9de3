/**
 * What lotto/ and lottery/ name alike beside the draw lifecycle: the people who sign a draw's minutes and the payee
 * of a prize. Here, below both lines, so neither imports the other for them.
 */

/** LOT-19 / LNS-11: the people who sign the minutes. */
export interface DrawStaff {
  /** Máxima Autoridad Ejecutiva. */
  authority: string
  /** Director del Sorteo. */
  director: string
  /** Moderador (calls the numbers aloud). */
  moderator: string
  /** Notario de Fe Pública. */
  notary: string
}

/**
 * Prize-register data of the person paid (INS-5, LNS-25, §7.13): first and last names, identity document, and how
 * the signature was taken (e.g. "firma en recibo impreso", or the id of a signature-pad image).
 */
export interface PayeeData {
  name: string
  document: string
  signatureRef?: string
}

/** Default signature reference: the payee signs the printed payout receipt, kept with the register. */
export const SIGNED_RECEIPT = 'firma en recibo impreso'
