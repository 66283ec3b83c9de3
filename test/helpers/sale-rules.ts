/**
 * GEN-18 / BNG-40 (002 §1.2.1.1, §6.1.5): a Bolivian hall sells no card until its bet limits are recorded with the
 * AJ's reference. The limits test halls are created with: the profile's defaults, under a test reference.
 */
export const TEST_SALE_RULES = {
  authorisationRef: 'AJ-RA-PRUEBA-LIMITES-1',
  minCardsPerPurchase: 1,
  maxCardsPerPurchase: 50,
  maxCardsPerPlayer: 50,
  faceValuesCents: null,
}

/**
 * GEN-1 (002 §1): a Bolivian hall sells no card until the reference of its AJ Operating Licence is recorded. The
 * licence test halls are created with (the profile's minimum by cards), under a test reference.
 */
export const TEST_LICENCE = {
  authorisationRef: 'AJ-LO-PRUEBA-1',
  minimumBasis: 'cards' as const,
}
