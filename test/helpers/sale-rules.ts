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
 * licence test halls are created with (the profile's minimum by cards), under a test reference. It allows the system's
 * claims (CFG-21), as a licence may: the tests that play whole games let the system claim for the cards they buy.
 * A test about the player's own call records a licence without them (test/e2e/auto-claim-licence.test.ts).
 */
export const TEST_LICENCE = {
  authorisationRef: 'AJ-LO-PRUEBA-1',
  minimumBasis: 'cards' as const,
  autoClaims: true,
}

/**
 * GEN-3: the licence a test hall of `profileId` is created with: the test licence, whose say on the system's claims
 * (CFG-21) a Cantabrian authorisation never has (004 Bingo III, BNG-48: recording it there is refused).
 */
export function testLicence(profileId: string): {
  authorisationRef: string
  minimumBasis: 'cards'
  autoClaims: boolean
} {
  return profileId.startsWith('ES-') ? { ...TEST_LICENCE, autoClaims: false } : TEST_LICENCE
}

/**
 * BNG-10 / CFG-15 (004 Bingo II.1.a): a Cantabrian hall creates no series and sells no card until the face values
 * the Consejería set are recorded with its reference. The Cantabrian test halls are created with these, the values
 * their series use, under a test reference (the profile's default limits).
 */
export const TEST_ES_SALE_RULES = {
  authorisationRef: 'CONSEJERIA-VF-PRUEBA-1',
  minCardsPerPurchase: 1,
  maxCardsPerPurchase: 50,
  maxCardsPerPlayer: 50,
  faceValuesCents: [100, 150, 200, 300, 500, 700, 1000, 2000, 5000],
}
