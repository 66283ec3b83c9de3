/**
 * Jurisdiction profiles: the defaults and rule switches that differ between regulatory texts.
 * Rules read these fields; no code tests a jurisdiction's name (DESIGN.md, CFG-1).
 */
import { LAYOUT_90, type CardLayout } from './card-layout.ts'
import type { IdentityCountry, IdentityDocumentKind } from './identity.ts'

export interface PrizeShares {
  /** Whole prize pool, basis points of cards sold x face value (BNG-56: 6700 in Cantabria). */
  poolBp: number
  /** Line prize (BNG-56: 1000). */
  lineBp: number
  /** Bingo prize (BNG-56: 5100). */
  bingoBp: number
  /** Prima fund deduction (BNG-58: 600); 0 where the profile has no prima. */
  primaBp: number
}

/** BNG-101 / CFG-33: how the virtual cards of an electronic bingo terminal are marked on its screen. */
export type TerminalMarking = 'automatic' | 'per-ball' | 'catch-up'

/**
 * Issue 27: what happens to a terminal's cards when the terminal loses its connection. `play-on-credit`: the cards play
 * on to the end of their game and a win is credited to the session (a terminal that reconnects shows the game as it
 * is). The shipped texts fix no other; a jurisdiction whose text does adds its mode here.
 */
export type TerminalDisconnection = 'play-on-credit'
export const TERMINAL_DISCONNECTIONS: readonly TerminalDisconnection[] = ['play-on-credit']

/**
 * Issue 27: the operating terms of electronic bingo on hall terminals (BNG-101, CFG-33). Amounts in minor units;
 * `prizeReturnBp` bounds the game's line + bingo shares (basis points of the takings); `terminalRangePercent` is the
 * top share of each series' card numbers reserved for terminals (BNG-9: paper and virtual cards in one game, no clash).
 */
export interface TerminalTerms {
  markingMode: TerminalMarking
  maxCardCents: number
  maxGameCents: number
  maxSessionCents: number
  minGameSeconds: number
  prizeReturnBp: { min: number; max: number }
  terminalRangePercent: number
  /**
   * What a terminal's disconnection does to its cards, where the profile leaves it to the authority
   * (`ElectronicBingoRules.disconnection.mode` null): then the hall's record states it under the authority's reference.
   */
  onDisconnect?: TerminalDisconnection
}

export interface ElectronicBingoRules {
  /** Virtual cards sold at hall terminals at all. */
  allowed: boolean
  /**
   * Who sets the terms where the text leaves them open, and the rule that says so: a hall records that authority's
   * reference with its terms before a terminal sells (PUT /api/halls/:hallId/terminal-terms). null: the profile's
   * `terms` apply as they are.
   */
  authority: { name: string; rule: string } | null
  /**
   * Claims for virtual cards made by the system (CFG-21) or by the player's button. Cantabria: never automatic
   * (004 Bingo III, the player calls; BNG-48). Follows `autoClaimAllowed` in both shipped profiles.
   */
  autoClaim: boolean
  /** The terms the text itself fixes; null where it leaves them to `authority` (the hall's record then supplies them). */
  terms: TerminalTerms | null
  /**
   * What a terminal's disconnection does to its cards: the text's own rule (`mode`), or null where the text leaves
   * it to `authority`, and then a hall's terms are not accepted without `onDisconnect`. `source`: the paragraph.
   */
  disconnection: { mode: TerminalDisconnection | null; source: string }
}

/** The kinds of enrolled device (access/roles.ts DeviceKind), named here so that shared/ imports no other module. */
export type EnrolledDeviceKind = 'kiosk' | 'cashier_station' | 'display' | 'terminal'

/**
 * Issue 26: what an enrolled device must carry before it is enrolled, and before it sells or pays: the regulator's
 * security seal code (GEN-7) and the type-approval (homologación) number (GEN-4, BNG-31), each for the kinds listed.
 */
export interface EnrolledDeviceMarks {
  sealCode: readonly EnrolledDeviceKind[]
  typeApproval: readonly EnrolledDeviceKind[]
}

/**
 * Issue 26 (GEN-4, GEN-7, BNG-9): what the ticket printer of a device that sells or pays (kiosk, cashier station,
 * terminal) must carry in the equipment registry: the security seal code, the type-approval number, and the
 * regulator's prior authorisation of the in-hall issuing system it belongs to. All false: no printer record is asked.
 */
export interface PrinterMarks {
  sealCode: boolean
  typeApproval: boolean
  issuingAuthorisation: boolean
}

/** Issue 26 (RNG-3, RNG-24/25, RNG-29, RNG-32): the software components a regulator certifies or type-approves. */
export type SoftwareComponent = 'draw-engine' | 'pot-award' | 'derived-bingo'

/**
 * BNG-42 step 7 / BNG-50 / BNG-80 / CFG-20 / CFG-46: the times of a game that the texts name without a number. 002 §6.1.5
 * and 004 Bingo III: balls are drawn and read "con el ritmo adecuado para que todos los jugadores puedan" follow and
 * mark them (no interval); the jefe asks "¿alguna línea más?" / "¿algún bingo más?" leaving "un plazo de tiempo
 * prudencial" (002) / "un tiempo prudencial" (004) before the order that ends the right to claim (no length); 004
 * Bingo II.1.b: a game whose devices fail before the first ball is suspended "durante un plazo prudencial, a juicio del
 * Jefe de Sala" before its cards are refunded (no length). So no profile fixes a value: a hall records its own
 * (PUT /api/halls/:hallId/calling-times; none recorded: no minimum), and where `authority` is set, only with that
 * authority's reference. The three values bind the one path a ball is drawn (draw.ts), the closing of the window
 * (claims.ts) and the refund of an unresolved suspension (incidents.ts).
 */
export interface CallingTimesRule {
  /** Whose approval makes a hall's times binding, and the rule that says so; null: the hall records them itself. */
  authority: { name: string; rule: string } | null
  /** The paragraphs that leave the values open. */
  source: string
}

export interface Profile {
  id: string
  name: string
  currency: string
  locale: 'es' | 'en'
  layout: CardLayout
  /**
   * BNG-52 / BNG-56 / CFG-24: default prize shares. null where the text fixes none (Bolivia: they come from the
   * hall's AJ-approved Plan de Apuestas, and a hall without one announces no game).
   */
  shares: PrizeShares | null
  /**
   * BNG-21 / CFG-17: a game needs at least `cards` cards, or `positionsPercent` % of the hall's playing
   * positions, whichever `basis` the licence chose. null = no minimum (Cantabria sets none).
   */
  minimumParticipation: {
    basis: 'cards' | 'positions'
    cards: number
    positionsPercent: number
    /**
     * BNG-22 (000 §6.1.4, BO-2013 only): the hall may start a game with fewer cards sold when it posted so, in a place
     * visible to the public, at the start of the day (POST /api/halls/:hallId/reduced-minimum). Removed in 002.
     */
    belowIfPosted?: boolean
  } | null
  /** BNG-24 / CFG-19: games per ball set before it must be replaced. */
  ballSetGameLimit: number
  /**
   * BNG-26 (Cantabria): only type-approved balls; a set is registered with its approval number and the number of
   * games its manufacturer guarantees. The Bolivian texts ask for neither: optional there.
   */
  ballSetTypeApproval: boolean
  /**
   * BNG-25: who must be present at a change of ball sets. Bolivia: the Director del Bingo (002 §6.1.4.1). Cantabria
   * names nobody: any second person allowed to witness a ball-set change (director or hall manager).
   */
  ballSetChangeWitness: 'director' | 'any-witness'
  /**
   * BNG-3 / BNG-4 / CFG-10..12: a card layout other than the profile's own (75 balls, bingo plus, derived, fast) is
   * played in a hall only under a reference: Bolivia, the Licencia de Operación that sets the count of numbers and
   * rows (002 §6.1.3); Cantabria, the Consejería's express authorisation (004 Bingo I). true in both shipped profiles.
   */
  otherLayoutsNeedAuthorisation: boolean
  /**
   * BNG-31 / CFG-8: the ball extractor and the automatic reader of a game carry a homologation (type-approval)
   * number besides the seal and certificate every draw device needs (GEN-7, BNG-30). Cantabria: type-approved
   * extractors and readers (004 Bingo II.3). The Bolivian texts ask for the Certificado de Cumplimiento only.
   */
  drawDeviceTypeApproval: boolean
  /** BNG-27: recount of balls at session start only, or at start and end. */
  ballRecount: 'start' | 'start-and-end'
  /** BNG-1 / RNG-25: draws by certified software allowed. */
  softwareDrawAllowed: boolean
  /**
   * BNG-48 / CFG-21: the system registers claims for the paper cards it sold as soon as they win. Off in every shipped
   * profile: a hall has them only as its own settings make them (betting-plan.ts hallProfile: the profile allows them,
   * the hall's recorded licence allows them, the hall has not switched them off). Off, the server only records,
   * silently, the ball at which each card first won, and the player calls. Virtual cards: `electronicBingo.autoClaim`.
   */
  autoClaimSoldCards: boolean
  /** BNG-83: what a caller's wrong announcement leads to. */
  callerError: 'annul' | 'ball-prevails'
  /**
   * BNG-74 / CFG-38: who signs an incident entry beside the jefe who declares it. Bolivia: the Director de Bingo
   * (each entry signed by both). Cantabria names no co-signer: only an annulment takes a second person there.
   */
  incidentCosign: 'director' | 'none'
  /** BNG-85 / CFG-23: cards may be handed to another player when one leaves. */
  cardTransferAllowed: boolean
  /**
   * CFG-21: whether a hall of this profile may have the system's automatic claims at all (then only where its recorded
   * licence allows them: LicenceTerms.autoClaims). Cantabria (004 Bingo III): never, the player calls.
   */
  autoClaimAllowed: boolean
  /**
   * BNG-40 / GEN-18 / CFG-7 / CFG-16: the bets a hall posts and enforces until its own sale rules (the Plan de
   * Apuestas' limits, PUT /api/halls/:hallId/sale-rules) say otherwise. A bingo bet is a number of cards at the
   * game's face value, so the limits count cards: the fewest and the most one purchase may buy, and the most one
   * player may hold in one game (CFG-16, "not set in the texts": 50, the per-purchase maximum the kiosk always had).
   */
  betLimits: { minCardsPerPurchase: number; maxCardsPerPurchase: number; maxCardsPerPlayer: number }
  /**
   * GEN-18 / BNG-40 / CFG-7: whose approval makes a hall's bet limits binding, and the rule that says so. Where set, a
   * hall sells no card until its own limits are recorded with that authority's reference (sale rules); `betLimits`
   * above are then only what the set-up screen proposes. null: the profile's limits apply as they are.
   */
  betLimitsAuthority: { name: string; rule: string } | null
  /**
   * CFG-2 / GEN-17: the currency's notes and coins (minor units) a cash count is made of (a count naming any other
   * is refused, DENOMINATION_UNKNOWN), and which of them are the "small denominations" whose intake the AML rule
   * watches, with the paragraph that names them (`source`).
   */
  cash: {
    notesCents: readonly number[]
    coinsCents: readonly number[]
    smallCents: readonly number[]
    source: string
  }
  /**
   * GEN-1: whose Operating Licence a hall must hold before it sells, and the rule that says so. Where set, a hall
   * sells no card until the reference of that licence is recorded (its licence terms, PUT /api/halls/:id/licence, or
   * `licence` when the hall is created). null: the profile asks for no such record. Cantabria names the Consejería
   * whose prior authorisation the hall's games need (GEN-3), recorded the same way.
   */
  operatingLicenceAuthority: { name: string; rule: string } | null
  /**
   * BNG-10 / CFG-15: the authorised card face values (minor units). null: the profile knows none (the Consejería's
   * or the AJ's values are recorded per hall in its sale rules); a series at any other value is refused.
   */
  faceValuesCents: number[] | null
  /**
   * BNG-10 / CFG-15: the authority that sets a hall's card face values, and the rule that says so. Where set, a hall
   * creates no series, announces no game and sells no card until its list (sale rules `faceValuesCents`) is recorded
   * with that authority's reference; then only those values. null: a list binds where the hall records one.
   */
  faceValuesAuthority: { name: string; rule: string } | null
  /**
   * BNG-19 (Cantabria, 004 Bingo III): no one enters the hall from outside once the reading of the game's data
   * begins (at the latest at the close of sales) until the game ends. Bolivia has no such rule.
   */
  hallEntryClosesForGame: boolean
  /**
   * BNG-15 / BNG-88 (Bolivia, 002 §6.1.5): a player's cards of the previous game are handed back before the player
   * buys for the next. Cantabria has staff collect them after each game (BNG-87) and makes no such condition.
   */
  previousCardsReturnedToBuy: boolean
  /**
   * BNG-17 / BNG-18 / CFG-45: how the jefe announces the cards sold at the close of sales. `formula`: Bolivia's fixed
   * words ("tickets autorizados vendidos … de la serie … del número … al …", 002 §6.1.5); `ranges`: Cantabria's "any
   * method" that makes the series and card numbers in play known, other prizes on the panels (004 Bingo III).
   */
  salesAnnouncement: 'formula' | 'ranges'
  /** BNG-12: the correlative cursor of a series carries over from any earlier game, or only from the same or previous day. */
  seriesCursorCarry: 'any-previous-game' | 'same-or-previous-day'
  /** IANA time zone of a hall that sets none of its own (hall setting `timeZone`): days of BNG-12 are its days. */
  timeZone: string
  /**
   * BNG-65 (004 Bingo V.2.a): where the accumulated prima fund goes when a hall closes for any reason. Cantabria: to
   * the Consejería competente en materia de economía y hacienda, for the Government's general revenue account.
   * Bolivia (002, 000): the texts have no hall prima and say nothing; null, and a hall closes only with no fund left.
   */
  primaOnHallClosure: string | null
  /** BNG-57..64: prima de bingo. */
  prima: { enabled: boolean; baseBallLimit: number; incrementPerGame: number; amountsCents: number[] }
  /**
   * BNG-68: Cantabria forbids topping prizes up with any money and any prize beyond the regulated ones (line,
   * bingo, prima, interconnected bingo, bola loca): no progressive pot, no seed money. Bolivia allows both (BNG-55).
   */
  extraPrizes: { progressivePots: boolean; seedMoney: boolean }
  /**
   * BNG-102 / CFG-34: derived bingo (a Cantabrian modality) and the Consejería's minimum prize percentage, which
   * the decree leaves to the Consejería: default 6700 (the ordinary bingo's 67 %) until its resolution says otherwise.
   */
  derivedBingo: { allowed: boolean; minimumPrizeBp: number }
  /**
   * CFG-13 / BNG-103 / CFG-35: prize figures beyond line and bingo (bingo/patterns.ts), on which cards, and whose
   * approval a hall's figure plan must cite (its `authorisationRef` is required). `layouts`: 'any' (every card the
   * hall plays), 'bingo-plus' (only bingo plus cards of 1..100) or 'none'.
   */
  figurePrizes: { layouts: 'any' | 'bingo-plus' | 'none'; authority: string | null }
  /**
   * BNG-71 (Cantabria, 004 Bingo V.3): prizes are paid at the end of each game, always before the next one starts.
   * The Bolivian texts set no such order (prizes are paid against the card within the claim period): off there.
   */
  prizesPaidBeforeNextGame: boolean
  /**
   * BNG-70 (004 Bingo V.3): prizes are paid in cash, which may be replaced by a cheque drawn on the company's current
   * account at the player's request or with their consent. The Bolivian text (002 §6.1) names only chips, money or
   * goods announced beforehand: no cheque there unless the licence says so.
   */
  prizeChequeAllowed: boolean
  /** CFG-5. */
  minimumAge: number
  /**
   * CFG-4 / GEN-23 (6): the authority whose international lists name people who may not play, entered on the
   * exclusion list with the list they come from (access/players.ts). Bolivia 2025 (002 §1.2.2.2, 6: "Las personas que
   * se encuentren en listas internacionales, conforme normativa emitida por la Unidad de Investigaciones Financieras
   * – UIF"): the UIF, which says which lists. Bolivia 2013 (000 §1.2.2.2 has no such item) and Cantabria: none.
   * The lists are not fetched: no text names a feed, and the UIF's lists reach the operator as its resolutions.
   */
  internationalLists: { authority: string; rule: string } | null
  /** CFG-5: the identity documents the halls take, by country: how a document is keyed to one person (shared/identity.ts). */
  identityCountry: IdentityCountry
  /**
   * CFG-5 (002 §1.2.2.2 "identity documents accepted"): the kinds of identity document a player's identity is taken
   * from, wherever one is typed (a buyer at a cash intake, a payee at a payout); any other is refused
   * (IDENTITY_DOCUMENT_NOT_ACCEPTED). Bolivia: the cédula de identidad and the passport, the two the texts name for a
   * player ("documento de identidad (pasaporte o cedula de identidad)", 002 §6.1 Cartón de juego; 000 §6.1 the same).
   * Cantabria: decreto 6/2010 names no document, which leaves it to the Consejería: the Spanish identity documents
   * (DNI, NIE) and the passport until its resolution (`rule`) says otherwise.
   */
  identityDocuments: { kinds: readonly IdentityDocumentKind[]; rule: string }
  /**
   * CFG-22 (002 §6.1 Cartón de juego, 000 §6.1 the same): the card has room for the player's "nombres, documento de
   * identidad (pasaporte o cedula de identidad) y teléfono de contacto", used "principalmente en los Bingos con Pozos
   * Progresivos": a progressive-pot prize is paid against the winner's name, document and contact telephone. Bolivia.
   * Cantabria has no progressive pots (BNG-68) and asks for no telephone.
   */
  potPayeePhoneRequired: boolean
  /** BNG-77 / BNG-87: minutes and winning cards kept at least this many days. */
  retentionDays: number
  /**
   * BNG-53 / CFG-26: among whom a line or bingo prize is split in equal parts, leftover centavos to the lowest serials
   * (money.ts). Bolivia (002 §6.1.8.3): "entre los jugadores que lo obtengan": per player, each identified player's
   * part then split among their winning cards; a card sold to no identified buyer is its own player. Cantabria (004
   * Bingo III and V.1): "a partes iguales entre los cartones premiados": per card.
   */
  splitBasis: 'card' | 'player'
  /** INS-15/16: on-screen electronic instant lottery sale. */
  electronicInstantAllowed: boolean
  /**
   * RNG-26 / LNS-7 / LOT-18 (issue 18, lottery helper): lotto and numbered-lottery draws by software without a
   * licence reference. false in both shipped profiles: the 2025 Bolivian text names only tómbolas, balotas, peceras "u
   * otro similar" authorised by the AJ and reserves electronic lottery for its own regulation (INS-16), and decree
   * 6/2010 says nothing of software lottery draws. A licence whose AJ authorisation accepts an RNG as such a device
   * names it in configuration (BOLILLO_LOTTERY_RNG_AUTHORISATION), and RNG draws are then allowed under that reference.
   */
  softwareLotteryDrawAllowed: boolean
  /**
   * LNS-14 (002 §7.3.4.3, "Antes de la realización del sorteo ... deberá publicar"): minutes a lotto draw waits after
   * its participation file is published at the close of sales before its first ball or beacon. The text sets no length;
   * default 30 minutes, so that the file the public is meant to check is out before anything is drawn.
   */
  lnsPublicationHoldMinutes: number
  /**
   * LNS-12 / LNS-15 (002 §7.3.4.1): a lotto plan's number range may be "neither lower nor higher than the limit
   * authorised in the Licencia de Operaciones": true where the licence record (configuration BOLILLO_LOTTO_LICENCE)
   * must exist and bound every plan. Bolivia only; Cantabria has no selected-numbers lottery text.
   */
  lnsLicensedRangeRequired: boolean
  /**
   * LOT-12 / LOT-27 (002 §7.1.1, §7.2): a numbered lottery prints "not exceeding the maximum quantity of tickets"
   * of the Implementation Project authorised by the AJ for the licence (the Operating Licence and Start-of-Operations
   * Certificate for the popular lottery): true where the licence record (configuration BOLILLO_LOTTERY_LICENCE) must
   * exist and bound every issue. Bolivia only; Cantabria has no numbered-lottery text.
   */
  lotteryLicensedMaxRequired: boolean
  /**
   * LOT-22 / LOT-30: the kinds of prize a numbered lottery may offer. Bolivia (002 §7.1.5, "Los premios podrán ser en
   * dinero, bienes y/o especie"): cash, goods and in kind. Cantabria (004 Loterías I: "se conceden premios en
   * metálico"): cash only. 000 (BO-2013) says nothing of the kind of a lottery prize: the 2025 rule is kept.
   */
  lotteryPrizeKinds: readonly ('cash' | 'goods' | 'in-kind')[]
  /**
   * LOT-1 (002 §7, 000 §7.1.2: "El juego de lotería, organizado y ejecutado por las entidades públicas del nivel central
   * del Estado, gobiernos departamentales y municipales autónomos"): true where a numbered lottery is planned only in
   * the name of the public entity the AJ licensed, as the licence record names it (BOLILLO_LOTTERY_LICENCE_HOLDER).
   * Decree 6/2010 (004 Loterías I) says nothing of who organises a lottery: false in Cantabria.
   */
  lotteryPublicEntityRequired: boolean
  /**
   * INS-3 (002 §7.4.3.1): the instant ticket generator must hold a certification by an AJ-authorised certifier; where
   * true, a batch is generated only by the build the operator's certificate names (BOLILLO_INSTANT_GENERATOR_CERT).
   * 000 and decree 6/2010 ask for none: false in Cantabria.
   */
  instantGeneratorCertificationRequired: boolean
  /**
   * RNG-20 / RNG-21 (002 §2.5.5.1, §2.5.6.3): a progressive pot, interconnected bonus or lucky-ball prize runs under
   * the AJ's prior authorisation (reference required when it is created). Bolivia. Cantabria's interconnected bingo
   * and bola loca are regulated modalities authorised with the hall itself (GEN-3): no separate reference.
   */
  potAuthorisationRequired: boolean
  /**
   * BNG-66 / CFG-30: whose resolution sets an interconnected pot's halls, deduction, maximum, reserve and ball scale,
   * and the rule that says so. Where set, an interconnected pot is created only with that resolution's reference
   * (INTERCONNECTED_NOT_AUTHORISED otherwise). null: `potAuthorisationRequired` covers it (Bolivia, RNG-20).
   */
  interconnectedPotAuthority: { name: string; rule: string } | null
  /**
   * LOT-3 / GEN-5 (Bolivia: AJ authorisation of each lottery game and of every means of access) and GEN-3 (Cantabria:
   * every catalogue game needs prior administrative authorisation): an instant game design carries that reference.
   */
  instantDesignAuthorisationRequired: boolean
  /**
   * GEN-3: the authority whose prior authorisation every catalogue game needs, and the rule that says so. Where set, a
   * lotto draw, a numbered lottery, a raffle or tómbola (unless the text itself exempts it) and an instant game are
   * planned only with that authorisation's reference (GAME_NOT_AUTHORISED otherwise): no plan, nothing to sell. null:
   * the plan's own rules ask for the regulator's reference (LOT-3).
   */
  catalogueGameAuthority: { name: string; rule: string } | null
  /**
   * BNG-98 / CFG-32 (bingo rápido, 002 §6.1.9): the player "elige y adquiere" numbers from a universe and wins on
   * completing "la cantidad de veces requerida por el Operador"; "Los medios de juego y medios de acceso al juego
   * deberán estar claramente establecidos en la Licencia de Operaciones emitida por la AJ". So the terms are the
   * hall's licence's, not the profile's: `licenceTerms` says whether this jurisdiction's licence may set them (the
   * modality is new in 002: not in 000 nor in Cantabria's decree). A hall whose licence sets none plays the default:
   * printed cards of picks, won when every pick is drawn (betting-plan.ts FastBingoTerms).
   */
  fastBingo: { licenceTerms: boolean }
  /** Issue 27, BNG-101 / BNG-9 / CFG-33: electronic bingo on hall terminals. */
  electronicBingo: ElectronicBingoRules
  /**
   * Issue 28: the base the regulator's daily and monthly totals give as `taxBaseCents`: `gross-gaming-revenue`
   * (stakes - refunds - prizes) or `stakes` (stakes - refunds). No rule of REGULATIONS.md sets it for the shipped
   * profiles, which leave it unset (gross gaming revenue); an operator whose tax is on the stakes sets `stakes`.
   */
  taxBase?: 'gross-gaming-revenue' | 'stakes'
  /**
   * Issue 28 point 5: the server refuses to start a build absent from the operator's release register. RNG-3 (and
   * RNG-25 by interpretation) asks a Certificado de Cumplimiento of the software in Bolivia, but the register is the
   * operator's to keep: the shipped profiles leave this unset and the operator turns it on with
   * BOLILLO_CERTIFIED_BUILDS=required once its register is in place.
   */
  certifiedBuildsRequired?: boolean
  /** Issue 26 (GEN-4, GEN-7, BNG-31, RNG-33, RNG-34): the marks each kind of enrolled device carries. */
  enrolledDeviceMarks: EnrolledDeviceMarks
  /** Issue 26 (GEN-4, GEN-7, BNG-9): the marks of the printer a selling or paying device prints on. */
  printerMarks: PrinterMarks
  /**
   * Issue 26 (RNG-3, RNG-24/25, RNG-29, RNG-32 point 5): the software components that run only where a record of
   * their certificate (or type approval) for this jurisdiction names the running build's hash (equipment/software.ts):
   * `draw-engine` for a game drawn by software, `pot-award` for a game whose hall has a pot in play, `derived-bingo`
   * for a derived bingo game.
   */
  certifiedSoftware: readonly SoftwareComponent[]
  /**
   * Issue 26 (GEN-6, BNG-30, RNG-25, RNG-33/34): a game or draw by RNG is drawn only where a registered RNG device
   * (equipment registry, kind `rng`: sealed, certified, unexpired, active; of the hall or of the operator) exists; it
   * is recorded on the game like a blower. Type approval of that device follows `drawDeviceTypeApproval`.
   */
  rngDeviceRequired: boolean
  /**
   * Issue 26 (RNG-30): whether a simultaneous game starts (its sales close) only with the central's ball-exit camera
   * registered (equipment/cameras.ts: sealed, active, with its stream), whose video image the halls receive; `source`
   * names the text that decides it. With or without it, a registered camera is relayed to the halls' displays.
   */
  simultaneousCentralCamera: { required: boolean; source: string }
  /**
   * BNG-34: whether a game's sale opens only with the hall's own ball-exit camera registered (equipment/cameras.ts:
   * sealed, active, with its stream), whose image the server relays to the hall's displays; `source` names the text.
   */
  ballExitCamera: { required: boolean; source: string }
  /** Issue 26 (CFG-20, BNG-42, BNG-50, BNG-80, CFG-46): who sets the hall's calling rhythm, window and suspension times. */
  callingTimes: CallingTimesRule
}

/**
 * Issue 26: what an enrolled device of `kind` lacks under `profile` (empty: nothing). Pure: the words are stable, the
 * refusal carries them in its details and the screens name them in Spanish.
 */
export function missingDeviceMarks(
  profile: Pick<Profile, 'enrolledDeviceMarks'>,
  kind: string,
  marks: { sealCode?: string | null; typeApprovalNo?: string | null },
): Array<'seal-code' | 'type-approval'> {
  const missing: Array<'seal-code' | 'type-approval'> = []
  const k = kind as EnrolledDeviceKind
  if (profile.enrolledDeviceMarks.sealCode.includes(k) && !marks.sealCode?.trim()) missing.push('seal-code')
  if (profile.enrolledDeviceMarks.typeApproval.includes(k) && !marks.typeApprovalNo?.trim())
    missing.push('type-approval')
  return missing
}

/** What a printer record lacks under `profile`; `printer` undefined: no printer is registered for the device. */
export function missingPrinterMarks(
  profile: Pick<Profile, 'printerMarks'>,
  printer:
    | { sealCode: string | null; typeApprovalNo: string | null; issuingAuthorisation: string | null; status: string }
    | undefined,
): Array<'no-printer' | 'seal-code' | 'type-approval' | 'issuing-authorisation' | 'printer-not-active'> {
  const need = profile.printerMarks
  if (!need.sealCode && !need.typeApproval && !need.issuingAuthorisation) return []
  if (!printer) return ['no-printer']
  const missing: ReturnType<typeof missingPrinterMarks> = []
  if (need.sealCode && !printer.sealCode?.trim()) missing.push('seal-code')
  if (need.typeApproval && !printer.typeApprovalNo?.trim()) missing.push('type-approval')
  if (need.issuingAuthorisation && !printer.issuingAuthorisation?.trim()) missing.push('issuing-authorisation')
  if (printer.status !== 'active') missing.push('printer-not-active')
  return missing
}

const CANTABRIA_SHARES: PrizeShares = { poolBp: 6700, lineBp: 1000, bingoBp: 5100, primaBp: 600 }

/** Bolivia, RR 01-00003-25 (2025). Prize percentages come only from the hall's Plan de Apuestas (BNG-52). */
export const BOLIVIA_2025: Profile = Object.freeze({
  id: 'BO-2025',
  name: 'Bolivia — RR 01-00003-25 (2025)',
  currency: 'BOB',
  // CFG-2: the boliviano's notes (Bs 10 to Bs 200) and coins (10, 20, 50 centavos; Bs 1, 2, 5). 002 §1.2.1.V names
  // the small ones: "billetes de corte menor (Bs10 y/o Bs20 y/o monedas fraccionadas)"; every coin is fractional money.
  cash: Object.freeze({
    notesCents: Object.freeze([1_000, 2_000, 5_000, 10_000, 20_000]),
    coinsCents: Object.freeze([10, 20, 50, 100, 200, 500]),
    smallCents: Object.freeze([1_000, 2_000, 10, 20, 50, 100, 200, 500]),
    source: '002 §1.2.1.V: billetes de corte menor (Bs10 y/o Bs20 y/o monedas fraccionadas)',
  }),
  locale: 'es',
  layout: LAYOUT_90,
  shares: null,
  minimumParticipation: { basis: 'cards', cards: 10, positionsPercent: 10 },
  ballSetGameLimit: 1000,
  ballSetTypeApproval: false,
  ballSetChangeWitness: 'director',
  otherLayoutsNeedAuthorisation: true,
  drawDeviceTypeApproval: false,
  ballRecount: 'start',
  softwareDrawAllowed: true,
  // CFG-21: 002 §6.1.5, players who form a line or a bingo "deberán cantarlo en voz alta"; the catalogue: off unless
  // the licence allows it. A hall whose AJ Operating Licence allows them records so (LicenceTerms.autoClaims).
  autoClaimSoldCards: false,
  callerError: 'annul',
  incidentCosign: 'director',
  cardTransferAllowed: false,
  autoClaimAllowed: true,
  betLimits: { minCardsPerPurchase: 1, maxCardsPerPurchase: 50, maxCardsPerPlayer: 50 },
  // 002 §1.2.1.1: "las apuestas mínimas y máximas ... son las establecidas por el operador en su Plan de Apuestas
  // aprobado por la AJ"; 002 §6.1.5: in bingo they are fixed "con autorización previa de la AJ". No default binds.
  betLimitsAuthority: {
    name: 'Autoridad de Fiscalización del Juego (AJ)',
    rule: 'GEN-18 / BNG-40 (002 §1.2.1.1, §6.1.5)',
  },
  // GEN-1 (002 §1: "podrán ser desarrollados y explotados únicamente por Operadores de Juegos que cuenten con Licencia
  // de Operaciones emitida por la AJ"; 000 §6.1.4 and 002 §6.1.4 tie the hall's game to "la resolución que concedió
  // la licencia de operaciones para el salón"): no sale before the licence's reference is on record. 2013 alike.
  operatingLicenceAuthority: {
    name: 'Autoridad de Fiscalización del Juego (AJ)',
    rule: 'GEN-1 (002 §1; 000 §6.1.4)',
  },
  faceValuesCents: null,
  // CFG-15 (002 §6.1.5): the face values follow from the Plan de Apuestas the AJ approved; a list the hall records
  // in its sale rules binds, and the licence and bet limits already wait for the AJ's reference (GEN-1, GEN-18).
  faceValuesAuthority: null,
  hallEntryClosesForGame: false,
  previousCardsReturnedToBuy: true,
  salesAnnouncement: 'formula',
  seriesCursorCarry: 'any-previous-game',
  timeZone: 'America/La_Paz',
  prima: { enabled: false, baseBallLimit: 50, incrementPerGame: 1, amountsCents: [] },
  primaOnHallClosure: null,
  extraPrizes: { progressivePots: true, seedMoney: true },
  derivedBingo: { allowed: false, minimumPrizeBp: 0 },
  // CFG-13 (002 §6.1.5 names line and bingo; §6.1.3 "la cantidad de números y filas ... podrán variar en función a la
  // Licencia de Operaciones emitida por la AJ"; §6.1.9 other bingos' "modalidades de juego deben estar claramente
  // establecidos en la Licencia de Operaciones emitida por la AJ"): figures as the hall's licence states them, their
  // shares in the Plan de Apuestas the AJ approved (§6.1.8.3).
  figurePrizes: { layouts: 'any', authority: 'AJ — Licencia de Operaciones y Plan de Apuestas (002 §6.1.9, §6.1.8.3)' },
  prizesPaidBeforeNextGame: false,
  prizeChequeAllowed: false,
  minimumAge: 18,
  internationalLists: { authority: 'UIF', rule: '002 §1.2.2.2 (6)' },
  identityCountry: 'BO',
  identityDocuments: { kinds: ['ci', 'passport'], rule: '002 §6.1 (pasaporte o cédula de identidad)' },
  potPayeePhoneRequired: true,
  retentionDays: 183,
  splitBasis: 'player',
  electronicInstantAllowed: false,
  softwareLotteryDrawAllowed: false,
  lnsPublicationHoldMinutes: 30,
  lnsLicensedRangeRequired: true,
  lotteryLicensedMaxRequired: true,
  lotteryPrizeKinds: ['cash', 'goods', 'in-kind'],
  lotteryPublicEntityRequired: true,
  instantGeneratorCertificationRequired: true,
  potAuthorisationRequired: true,
  interconnectedPotAuthority: null,
  instantDesignAuthorisationRequired: true,
  // LOT-3 (002 §7: each lottery game under the AJ's authorisation) is checked by each plan's own rules.
  catalogueGameAuthority: null,
  // BNG-98 / CFG-32: 002 §6.1.9 leaves the fast bingo's terms to the AJ Operating Licence.
  fastBingo: { licenceTerms: true },
  // GEN-7 (002 §1.1.t, "Los medios de juego sin excepción, deberán llevar un Precinto de Seguridad con un Código de
  // Identificación asignado por la AJ"): betting terminals and computers adapted as gaming terminals are medios de
  // juego (GEN-6, §1.1.t III). The devices that sell or pay (kiosk, cashier station, electronic bingo terminal) are
  // enrolled only with their seal code and refused where they sell or pay without one. A hall display takes no bet
  // and moves no money: its seal code is recorded when given, and an AJ resolution that lists displays adds 'display'
  // here. The Bolivian texts ask no type-approval number of these devices (the AJ's seal is its verification).
  enrolledDeviceMarks: { sealCode: ['kiosk', 'cashier_station', 'terminal'], typeApproval: [] },
  // GEN-7 (002 §1.1.t, "Los medios de juego sin excepción, deberán llevar un Precinto de Seguridad") and GEN-5 (002
  // §1.1.s: the tickets and cards it prints are means of access, all under the AJ's authorisation): the printer that
  // issues a kiosk's or a station's tickets is a medio de juego, recorded with its AJ seal code. The 2025 text asks
  // no type approval, nor any prior authorisation of an in-hall issuing system (BNG-9 is Cantabria's).
  printerMarks: { sealCode: true, typeApproval: false, issuingAuthorisation: false },
  // RNG-25 (002 §6.1.2, "mediante software de juego": [Interpretation] a medio de juego with a Certificado de
  // Cumplimiento by analogy with RNG-3/RNG-6) and RNG-3 (002 §5.1.2: "los sistemas o programas que determinen la
  // entrega de los premios" of pots "deberán contar con el Certificado de Cumplimiento expedido por Empresas
  // Certificadoras Autorizadas y estar registradas en la AJ"; the paragraph is in the machines chapter, and the
  // bingo pots of 002 §6.1 are awarded by the same kind of program, RNG-33): the draw engine and the pot award
  // software run only under a certificate recorded for the running build.
  certifiedSoftware: ['draw-engine', 'pot-award'],
  // GEN-6 (002 §1.1.t III: "software o hardware fabricado o adaptado como soporte tecnológico para la operación de
  // juegos") and RNG-25 (002 §6.1.2, "mediante software de juego"): the RNG that draws is a medio de juego, registered
  // with its AJ seal and Certificado de Cumplimiento like a blower (BNG-30).
  rngDeviceRequired: true,
  // RNG-30: the 2025 text has no simultaneous bingo; its bingo room needs "pantallas y equipo audiovisual necesario para
  // presentar de manera amplia e inmediata los números que están siendo extraídos y cantados" (002 §6.1.4.1): the
  // numbers, which the displays show as data. No camera image is required to start a game.
  simultaneousCentralCamera: {
    required: false,
    source: '002 §6.1.4.1 (pantallas y equipo audiovisual para los números extraídos y cantados; sin bingo simultáneo)',
  },
  // BNG-34 (002 §6.1.4.1, CCTV): "es obligatorio la existencia de un circuito cerrado de televisión que garantice a los
  // jugadores el conocimiento inmediato de las bolas que vayan siendo extraídas durante el juego; para ello, deberá
  // habilitarse una cámara que enfoque permanentemente el lugar de salida de las bolas ... esta imagen será presentada
  // ... en diferentes monitores a color". It is the hall's equipment for playing at all ("permanentemente", "durante
  // el juego"), not a step of the draw: a game is not offered (its sale does not open) without it, rather than sold
  // and then refunded when its first ball cannot be shown.
  ballExitCamera: {
    required: true,
    source: '002 §6.1.4.1 (CCTV: «una cámara que enfoque permanentemente el lugar de salida de las bolas»)',
  },
  // CFG-20 / CFG-46: 002 §6.1.5 leaves the rhythm ("ritmo adecuado") and the "¿alguna línea más?" time ("plazo de
  // tiempo prudencial") open, and they are the way the hall plays the game its Plan de Apuestas and licence describe,
  // both approved by the AJ (002 §1.2.1.1, §6.1.4): a hall's times bind only with the AJ's reference. 000 §6.1.4 has
  // the same words (the 2013 profile keeps this).
  callingTimes: {
    authority: { name: 'Autoridad de Fiscalización del Juego (AJ)', rule: 'CFG-20 / CFG-46 (002 §6.1.5)' },
    source: '002 §6.1.5 («ritmo adecuado», «plazo de tiempo prudencial»); 000 §6.1.4',
  },
  // GEN-6 (002 §1.1.t): computers adapted as gaming terminals are medios de juego, each under the AJ's authorisation;
  // the 2025 text sets no terms of its own for virtual cards, so the hall records the AJ's with its reference.
  electronicBingo: {
    allowed: true,
    authority: { name: 'Autoridad de Fiscalización del Juego (AJ)', rule: 'GEN-6 (002 §1.1.t)' },
    autoClaim: true,
    terms: null,
    // The Bolivian texts (000, 002) say nothing of a terminal's disconnection: the AJ's resolution states it.
    disconnection: { mode: null, source: 'GEN-6 (002 §1.1.t): the AJ regulates; 000 and 002 are silent on it' },
  },
}) as Profile

/**
 * CFG-1: Bolivia, RR 01-00002-13 (2013, "000"), for halls still licensed under it. The 2025 profile where the two texts
 * agree; where they differ, the 2013 rule with its paragraph (REGULATIONS.md marks each change "000 ... vs 002"):
 * - BNG-85 (000 §6.1.7.2): a player who leaves "podrá transferirlos, si lo desea, a otro jugador".
 * - GEN-18 / BNG-40 (000 §1.2.1.1 "si los hay"; 000 §6.1.4 has no AJ or display clause): bet limits bind where the
 *   hall has recorded them (with the AJ's reference, sale-rules.ts), and a hall without them is not stopped.
 * - BNG-22 / CFG-17 (000 §6.1.4, "Inicio de juego"): the same 10 cards or 10 %, but the hall may start with fewer
 *   cards sold if it posted so in a place visible to the public at the start of the day: `belowIfPosted`.
 * - BNG-1 / RNG-25 (000 §6.1.2): numbers drawn from a tómbola or container only; draws by software are new in 002.
 * - BNG-1 (000 §6.1.2): a card bought, no digital means of access: no virtual cards on hall terminals.
 * - INS-3 (000 §7.2.3.1): the instant ticket generator needs no certification by an AJ-authorised certifier.
 */
export const BOLIVIA_2013: Profile = Object.freeze({
  ...BOLIVIA_2025,
  id: 'BO-2013',
  name: 'Bolivia — RR 01-00002-13 (2013)',
  minimumParticipation: { basis: 'cards', cards: 10, positionsPercent: 10, belowIfPosted: true },
  softwareDrawAllowed: false,
  cardTransferAllowed: true,
  betLimitsAuthority: null,
  internationalLists: null,
  instantGeneratorCertificationRequired: false,
  electronicBingo: {
    allowed: false,
    authority: null,
    autoClaim: true,
    terms: null,
  },
  // CFG-13 (000 §6.1.5): line and bingo on a card of 15 numbers, and no other bingo games: no figures.
  figurePrizes: { layouts: 'none', authority: null },
  // BNG-98: the bingo rápido of 002 §6.1.9 is new in 002; 000 has no licence terms of one.
  fastBingo: { licenceTerms: false },
  // BNG-34: the same CCTV text in 000 §6.1.3.1 (without "a color").
  ballExitCamera: {
    required: true,
    source: '000 §6.1.3.1 (CCTV: «una cámara que enfoque permanentemente el lugar de salida de las bolas»)',
  },
}) as Profile

/** Cantabria, Decreto 6/2010 and amendments. */
export const CANTABRIA_2010: Profile = Object.freeze({
  id: 'ES-CB-2010',
  name: 'Cantabria — Decreto 6/2010',
  currency: 'EUR',
  // CFG-2: the euro's notes and coins. Decreto 6/2010 has no small-denomination rule (GEN-17 is Bolivia's, 002
  // §1.2.1.V): none counts as small here; the amount over the server's threshold is still counted and recorded.
  cash: Object.freeze({
    notesCents: Object.freeze([500, 1_000, 2_000, 5_000, 10_000, 20_000, 50_000]),
    coinsCents: Object.freeze([1, 2, 5, 10, 20, 50, 100, 200]),
    smallCents: Object.freeze([]),
    source: 'Decreto 6/2010: sin regla de billetes de corte menor (GEN-17 es de 002 §1.2.1.V)',
  }),
  locale: 'es',
  layout: LAYOUT_90,
  shares: CANTABRIA_SHARES,
  minimumParticipation: null,
  ballSetGameLimit: 3000,
  ballSetTypeApproval: true,
  ballSetChangeWitness: 'any-witness',
  otherLayoutsNeedAuthorisation: true,
  drawDeviceTypeApproval: true,
  ballRecount: 'start-and-end',
  softwareDrawAllowed: false,
  autoClaimSoldCards: false,
  callerError: 'ball-prevails',
  incidentCosign: 'none',
  cardTransferAllowed: true,
  autoClaimAllowed: false,
  betLimits: { minCardsPerPurchase: 1, maxCardsPerPurchase: 50, maxCardsPerPlayer: 50 },
  // Decree 6/2010 sets the card's face value through the Consejería (004 Bingo II.1.a, BNG-10) and no bet limits of
  // its own: the hall's limits (CFG-16) are the operator's, recorded as sale rules when it sets them.
  betLimitsAuthority: null,
  // GEN-3 (004 Decreto 6/2010 art. 2.1: the catalogue's games "quedan legalizados, si bien sujetos a autorización
  // administrativa previa"; art. 2.2: run "sin la correspondiente autorización" they are prohibited): no sale before
  // the reference of the Consejería's authorisation of the hall's bingo is on record, as GEN-1 asks in Bolivia.
  operatingLicenceAuthority: {
    name: 'Consejería competente en materia de juego (Gobierno de Cantabria)',
    rule: 'GEN-3 (004 Decreto 6/2010 art. 2)',
  },
  faceValuesCents: null,
  // BNG-10 / CFG-15 (004 Bingo II.1.a, as amended by Decreto 84/2013: "El valor facial de los cartones de bingo será
  // determinado por la Consejería competente en materia de juego"): the decree sets no value, so a hall plays only the
  // values the Consejería set, recorded in its sale rules with the resolution's reference; none before.
  faceValuesAuthority: {
    name: 'Consejería competente en materia de juego (Gobierno de Cantabria)',
    rule: 'BNG-10 / CFG-15 (004 Bingo II.1.a, Decreto 84/2013)',
  },
  hallEntryClosesForGame: true,
  previousCardsReturnedToBuy: false,
  salesAnnouncement: 'ranges',
  seriesCursorCarry: 'same-or-previous-day',
  timeZone: 'Europe/Madrid',
  prima: { enabled: true, baseBallLimit: 50, incrementPerGame: 1, amountsCents: [5000, 10000, 50000, 100000] },
  primaOnHallClosure:
    'Consejería competente en materia de economía y hacienda — cuenta general de ingresos del Gobierno de Cantabria',
  extraPrizes: { progressivePots: false, seedMoney: false },
  derivedBingo: { allowed: true, minimumPrizeBp: 6700 },
  // CFG-13 / BNG-103 / CFG-35 (004 Bingo V.1 "Se premiarán las siguientes combinaciones: a) Línea ... b) Bingo": no
  // figure in ordinary bingo, and BNG-68 forbids prizes beyond the regulated ones; Bingo VI.4: bingo plus "premian
  // las combinaciones que establece el plan de premios correspondiente a esta modalidad"): figures on bingo plus
  // cards only, as the prize plan the Consejería approved sets them. Derived bingo's combinations are its version's.
  figurePrizes: {
    layouts: 'bingo-plus',
    authority: 'Consejería competente en materia de juego — plan de premios del bingo plus (004 Bingo VI.4)',
  },
  prizesPaidBeforeNextGame: true,
  prizeChequeAllowed: true,
  minimumAge: 18,
  internationalLists: null,
  identityCountry: 'ES',
  identityDocuments: { kinds: ['dni', 'nie', 'passport'], rule: 'decreto 6/2010 no los enumera: DNI, NIE o pasaporte' },
  potPayeePhoneRequired: false,
  retentionDays: 183,
  splitBasis: 'card',
  electronicInstantAllowed: false,
  softwareLotteryDrawAllowed: false,
  lnsPublicationHoldMinutes: 30,
  lnsLicensedRangeRequired: false,
  lotteryLicensedMaxRequired: false,
  lotteryPrizeKinds: ['cash'],
  lotteryPublicEntityRequired: false,
  instantGeneratorCertificationRequired: false,
  potAuthorisationRequired: false,
  // BNG-66 / CFG-30 (004 Bingo V.2.b: "Las normas y exigencias técnicas para la práctica de esta modalidad de premio,
  // así como el número de bolas extraídas y el porcentaje necesario para el cálculo del importe del premio, serán
  // establecidas por la Consejería competente en materia de juego"): the operator does not set them on its own.
  interconnectedPotAuthority: {
    name: 'Consejería competente en materia de juego (Cantabria)',
    rule: 'BNG-66 / CFG-30 (004 Bingo V.2.b)',
  },
  instantDesignAuthorisationRequired: true,
  // GEN-3 (004 Decreto 6/2010 art. 2.1: the catalogue's games "quedan legalizados, si bien sujetos a autorización
  // administrativa previa"; 2.2: run "sin la correspondiente autorización" they are prohibited). The catalogue has
  // boletos (004 D: instant tickets on a physical support), loterías (004 E: cash prizes when the numbers on the
  // ticket match wholly or partly a later draw, which a lotto slip's chosen numbers do as a numbered ticket's) and
  // rifas y tómbolas (004 F; exempt where the text exempts them, PRM-4). Each is planned only under the Consejería's
  // reference. The on-screen instant game is not a boleto (no physical support): electronicInstantAllowed is false.
  catalogueGameAuthority: {
    name: 'Consejería competente en materia de juego (Gobierno de Cantabria)',
    rule: 'GEN-3 (004 Decreto 6/2010 art. 2)',
  },
  // BNG-98: decree 004 has no bingo rápido; its hall plays no licence terms of one.
  fastBingo: { licenceTerms: false },
  // GEN-4 (004 Decreto art. 3.2: "El material, componentes o elementos utilizados en la práctica de los juegos ... será
  // el previamente homologado por la Consejería ... e inscrito en el Registro de Juego") and BNG-31 (004 Bingo II.3:
  // "máquinas, aparatos o equipos informáticos auxiliares del juego del bingo, que han de ser previamente homologados
  // por resolución del órgano competente"): every enrolled device carries its type-approval number. Cantabria has no
  // AJ security seal: the seal code is recorded when the hall has one, not required.
  enrolledDeviceMarks: { sealCode: [], typeApproval: ['kiosk', 'cashier_station', 'display', 'terminal'] },
  // BNG-9 (004 Bingo II.1.a: "Podrán emitirse cartones en sala, siempre que el sistema propuesto sea previamente
  // autorizado por la Consejería competente en materia de juego ... mediante sistemas de impresión o emisión
  // informática, debidamente homologados") and GEN-4 (004 Decreto art. 3.2): the printer a kiosk or station issues
  // cards and tickets on carries its type-approval number and the Consejería's authorisation of the issuing system.
  // No AJ seal in Cantabria (recorded when the hall has one).
  printerMarks: { sealCode: false, typeApproval: true, issuingAuthorisation: true },
  // RNG-24 / BNG-31 (004 Bingo II.3: the "equipos informáticos auxiliares del juego del bingo ... han de ser
  // previamente homologados") for the software that draws, should the Consejería ever allow one
  // (softwareDrawAllowed is false here), and RNG-29 (004 Bingo VI.3: derived bingo "a través de sistemas y programas
  // informáticos previamente homologados"). Cantabria has no progressive pots (extraPrizes): no pot software.
  certifiedSoftware: ['draw-engine', 'derived-bingo'],
  // GEN-4 / RNG-34: an RNG, where an authorisation allows one at all (softwareDrawAllowed, softwareLotteryDrawAllowed
  // are false here), is gaming material like any other: registered and type-approved (drawDeviceTypeApproval).
  rngDeviceRequired: true,
  // RNG-30 (004 Bingo VI.1): "en cada sala se recibirá la información del juego y de las diferentes extracciones a
  // través de imagen de vídeo remitida por la Central Operativa": no simultaneous game without the central's camera.
  simultaneousCentralCamera: {
    required: true,
    source: '004 Bingo VI.1 («imagen de vídeo remitida por la Central Operativa»)',
  },
  // BNG-34 (004 Bingo II.3): "circuito cerrado de TV que garantice el conocimiento por los jugadores de las bolas que
  // vayan saliendo durante el juego, para ello una cámara enfocará permanentemente el lugar de salida de aquellas y la
  // imagen será recogida por los distintos monitores": no sale opens without the hall's camera.
  ballExitCamera: {
    required: true,
    source: '004 Bingo II.3 («una cámara enfocará permanentemente el lugar de salida» de las bolas)',
  },
  // CFG-20 / CFG-46: 004 Bingo III ("ritmo adecuado", "tiempo prudencial") and II.1.b (the suspension lasts "un plazo
  // prudencial, a juicio del Jefe de Sala") leave the times to the hall's staff, not to the Consejería: the hall
  // records its own, with a reference when it has one.
  callingTimes: {
    authority: null,
    source: '004 Bingo III («ritmo adecuado», «tiempo prudencial»); 004 Bingo II.1.b («a juicio del Jefe de Sala»)',
  },
  // BNG-101 (004 Bingo VI.2): "the prize percentage, operation and requirements are set by the Consejería"; BNG-9
  // (004 Bingo II.1.a): physical and electronic cards in one ordinary game, technical requirements by Consejería order.
  // The decree fixes only that the player calls (004 Bingo III, BNG-48): no automatic claim. Caps, marking, duration,
  // prize return and the reserved range come from the Consejería's order, recorded per hall with its reference.
  electronicBingo: {
    allowed: true,
    authority: { name: 'Consejería competente en materia de juego (Cantabria)', rule: 'BNG-101 (004 Bingo VI.2)' },
    autoClaim: false,
    terms: null,
    // 004 Bingo VI.2 ("2. Bingo electrónico"), third paragraph: "El porcentaje que debe ir destinado a premios en esta
    // modalidad, así como la operativa de este juego y requisitos del mismo será el establecido por la Consejería
    // competente en materia de juego" (as amended by Decreto 84/2013). The decree says nothing of a disconnection:
    // it is part of the operation the Consejería sets.
    disconnection: {
      mode: null,
      source:
        'BNG-101 (004 Bingo VI.2, tercer párrafo: «la operativa de este juego y requisitos del mismo será el establecido por la Consejería»)',
    },
  },
}) as Profile

export const PROFILES: Readonly<Record<string, Profile>> = Object.freeze({
  [BOLIVIA_2025.id]: BOLIVIA_2025,
  [BOLIVIA_2013.id]: BOLIVIA_2013,
  [CANTABRIA_2010.id]: CANTABRIA_2010,
})

export function getProfile(id: string): Profile | undefined {
  return PROFILES[id]
}

/** BNG-21: the smallest number of cards that lets a game close its sales. */
export function minimumCardsToStart(profile: Profile, playingPositions: number): number {
  const rule = profile.minimumParticipation
  if (!rule) return 1
  if (rule.basis === 'cards') return Math.max(1, rule.cards)
  return Math.max(1, Math.ceil((playingPositions * rule.positionsPercent) / 100))
}
