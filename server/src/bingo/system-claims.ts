/**
 * CFG-21 / BNG-48 / BNG-101: which sold cards the system claims for as soon as they form a combination. Pure.
 *
 * A paper card: only where the hall plays with automatic claims (`autoClaimSoldCards` of its hall profile, betting-plan.ts
 * autoClaimsOf: the profile and the hall's recorded licence allow them). 002 §6.1.5: the players "deberán cantarlo en
 * voz alta" and hand the card to the Jefe de Mesa; the catalogue's CFG-21: off unless the licence allows it.
 *
 * A virtual card (sold at a hall terminal, channel `terminal:<id>`): by the electronic-bingo rules of the profile
 * (`electronicBingo.autoClaim`, which the hall's own switch turns off: hallProfile), whatever the licence says of paper
 * cards. A virtual card is marked by the system as the balls are drawn and its player is not in the call aloud and the
 * card handed to the Jefe de Mesa of 002 §6.1.5; the catalogue's note on BNG-48 leaves it to the electronic-bingo rules
 * (BNG-101, CFG-33), and the terminals play under the terms the authority approved with its reference (GEN-6 in
 * Bolivia). The player's claim button works either way; Cantabria: never automatic.
 */
import type { Profile } from '../shared/profile.ts'

/** The channel prefix of a card sold at a hall terminal (paid-sales.ts terminalCards). */
export const TERMINAL_CHANNEL = 'terminal:'

export function isVirtualCard(card: { channel: string }): boolean {
  return card.channel.startsWith(TERMINAL_CHANNEL)
}

/** Whether the system claims for `card` (`profile`: the hall's, hallProfile). */
export function claimedBySystem(
  profile: Pick<Profile, 'autoClaimSoldCards' | 'electronicBingo'>,
  card: { channel: string },
): boolean {
  return isVirtualCard(card)
    ? profile.electronicBingo.allowed && profile.electronicBingo.autoClaim
    : profile.autoClaimSoldCards
}

/** Whether the system may claim for any card of a hall with this profile. */
export function anyClaimedBySystem(profile: Pick<Profile, 'autoClaimSoldCards' | 'electronicBingo'>): boolean {
  return profile.autoClaimSoldCards || (profile.electronicBingo.allowed && profile.electronicBingo.autoClaim)
}
