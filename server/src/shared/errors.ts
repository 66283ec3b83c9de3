/**
 * One error family for the whole system. The domain throws `DomainError` with a stable code;
 * only the edges (HTTP, socket acks, CLI) translate a code into a status and a localised message.
 */
export const ErrorCode = {
  ValidationFailed: 'VALIDATION_FAILED',
  NotFound: 'NOT_FOUND',
  GameNotFound: 'GAME_NOT_FOUND',
  SessionNotFound: 'SESSION_NOT_FOUND',
  TicketNotFound: 'TICKET_NOT_FOUND',
  IllegalTransition: 'ILLEGAL_TRANSITION',
  SalesClosed: 'SALES_CLOSED',
  SalesNotOpen: 'SALES_NOT_OPEN',
  SeriesExhausted: 'SERIES_EXHAUSTED',
  SeriesRuleViolated: 'SERIES_RULE_VIOLATED',
  DuplicateCard: 'DUPLICATE_CARD',
  /** BNG-98 / BNG-13: a chosen-number card whose combination is already sold in the game. */
  NumbersTaken: 'NUMBERS_TAKEN',
  /** BNG-98: a purchase's chosen numbers missing, wrong, or given for a game of printed cards. */
  ChosenNumbersInvalid: 'CHOSEN_NUMBERS_INVALID',
  /** BNG-98: a chosen-number game sold where the buyer cannot say his numbers (the table's printed cards, terminals). */
  ChosenNumbersChannel: 'CHOSEN_NUMBERS_CHANNEL',
  MinimumParticipation: 'MINIMUM_PARTICIPATION',
  BallAlreadyDrawn: 'BALL_ALREADY_DRAWN',
  /**
   * CFG-20 / BNG-42 / BNG-50 / BNG-80: too soon under the hall's calling times (a ball before the least interval, the
   * "¿alguna línea más?" window closed before its least time, a suspension refunded before its least wait).
   */
  CallingTooSoon: 'CALLING_TOO_SOON',
  BallOutOfRange: 'BALL_OUT_OF_RANGE',
  NoBallsLeft: 'NO_BALLS_LEFT',
  ClaimRejected: 'CLAIM_REJECTED',
  ClaimClosed: 'CLAIM_CLOSED',
  NotVerified: 'NOT_VERIFIED',
  AlreadyPaid: 'ALREADY_PAID',
  InvalidSignature: 'INVALID_SIGNATURE',
  Conflict: 'CONFLICT',
  DeviceUnavailable: 'DEVICE_UNAVAILABLE',
  /** bolillo-draw-v2: the beacon round fixed at close is not published yet; the draw waits for it. */
  BeaconPending: 'BEACON_PENDING',
  // Certified devices, ball sets and entropy (GEN-7, BNG-24..27, RNG-32).
  DeviceNotCertified: 'DEVICE_NOT_CERTIFIED',
  /** Issue 26 (GEN-7, GEN-4): an enrolled device without the seal code or type approval its hall's profile requires. */
  DeviceMarksMissing: 'DEVICE_MARKS_MISSING',
  PrinterMarksMissing: 'PRINTER_MARKS_MISSING',
  SoftwareNotCertified: 'SOFTWARE_NOT_CERTIFIED',
  /** Issue 24 point 4: a server without the demo records no DEMO certificate, seal or type-approval reference. */
  DemoReferenceRefused: 'DEMO_REFERENCE_REFUSED',
  BallSetExhausted: 'BALL_SET_EXHAUSTED',
  BallSetRequired: 'BALL_SET_REQUIRED',
  ReserveBallSetRequired: 'RESERVE_BALL_SET_REQUIRED',
  /** LNS-9 / LNS-16: a manual lotto draw with no registered ball set, or no reserve set, of the plan's range. */
  LottoBallSetRequired: 'LOTTO_BALL_SET_REQUIRED',
  /** LOT-18: a manual lottery draw with no registered digit ball set for as many drums as its number has digits. */
  LotteryBallSetRequired: 'LOTTERY_BALL_SET_REQUIRED',
  /** LNS-9: a ball set a draw is being drawn with (or holds as its reserve) is not retired under it. */
  BallSetInUse: 'BALL_SET_IN_USE',
  /** LNS-9: a retired ball set is not marked reserve, retired again or drawn with. */
  BallSetRetired: 'BALL_SET_RETIRED',
  /** LNS-9 / LOT-18: a ball set is registered under a reference another set already has (a concurrent write it is not). */
  BallSetReferenceTaken: 'BALL_SET_REFERENCE_TAKEN',
  /** CFG-5: an identity document of a kind the hall's profile does not accept. */
  IdentityDocumentNotAccepted: 'IDENTITY_DOCUMENT_NOT_ACCEPTED',
  /** CFG-22: a progressive pot's prize paid without the winner's contact telephone where the profile asks for it. */
  PayeePhoneRequired: 'PAYEE_PHONE_REQUIRED',
  LayoutNotAuthorised: 'LAYOUT_NOT_AUTHORISED',
  EquipmentCheckFailed: 'EQUIPMENT_CHECK_FAILED',
  EntropyHealthFailed: 'ENTROPY_HEALTH_FAILED',
  RuleDisabled: 'RULE_DISABLED',
  Unauthorized: 'UNAUTHORIZED',
  Forbidden: 'FORBIDDEN',
  AccountLocked: 'ACCOUNT_LOCKED',
  RateLimited: 'RATE_LIMITED',
  // Credit vouchers, kiosk sales and prize payout (GEN-13, GEN-17, §8).
  VoucherSpent: 'VOUCHER_SPENT',
  VoucherExpired: 'VOUCHER_EXPIRED',
  VoucherInsufficient: 'VOUCHER_INSUFFICIENT',
  /** Issue 27: a terminal's caps (per card, per game, per session) or its balance refuse a purchase. */
  TerminalCapExceeded: 'TERMINAL_CAP_EXCEEDED',
  TerminalGameTooSoon: 'TERMINAL_GAME_TOO_SOON',
  TerminalBalanceInsufficient: 'TERMINAL_BALANCE_INSUFFICIENT',
  /** Issue 27: the terminal has no open player session (or it was closed elsewhere). */
  TerminalSessionClosed: 'TERMINAL_SESSION_CLOSED',
  /** Issue 27: terminal terms that do not say what a terminal's disconnection does to its cards (BNG-101). */
  TerminalTermsDisconnection: 'TERMINAL_TERMS_DISCONNECTION',
  /** Issue 27: a claim for a card the terminal's session does not hold. */
  TerminalCardNotHeld: 'TERMINAL_CARD_NOT_HELD',
  NotAWinner: 'NOT_A_WINNER',
  PrizePending: 'PRIZE_PENDING',
  TicketExpired: 'TICKET_EXPIRED',
  TicketVoid: 'TICKET_VOID',
  TicketBlocked: 'TICKET_BLOCKED',
  PayeeIdRequired: 'PAYEE_ID_REQUIRED',
  // Instant lottery (issue #7): a pre-printed ticket whose pack was never activated on arrival (INS-12).
  PackNotActivated: 'PACK_NOT_ACTIVATED',
  /** INS-10: an instant ticket is settled only with the inventory code printed outside its scratch area too. */
  InventoryCodeRequired: 'INVENTORY_CODE_REQUIRED',
  /** INS-10, INS-9: the inventory code presented is another ticket's (or the ticket is misprinted: price refund only). */
  InventoryCodeMismatch: 'INVENTORY_CODE_MISMATCH',
  /** Issue 15: an instant batch's seed comes from the entropy source; a seed sent by a person is refused. */
  TypedSeedRefused: 'TYPED_SEED_REFUSED',
  // Issue 15 point 4: a ball typed by hand into an RNG game (its balls come only from the committed order).
  RngNoManualBall: 'RNG_NO_MANUAL_BALL',
  // Issue 15 point 4: annulling a game needs a second person (floor manager or director) and a reason.
  SecondPersonRequired: 'SECOND_PERSON_REQUIRED',
  /** Issue 18 (lottery helper), LOT-21 / LNS-22: a lotto or lottery draw on a day other than its (postponed) date. */
  DrawNotDue: 'DRAW_NOT_DUE',
  /** Issue 18, LNS-4: money rolled over under a category code the next plan neither keeps nor maps. */
  RolloverUnmapped: 'ROLLOVER_UNMAPPED',
  /** Issue 18, LNS-22 / LOT-21: a cancelled draw takes no sale, ball or settlement; its slips are refunded. */
  DrawCancelled: 'DRAW_CANCELLED',
  /** Issue 18, BNG-72 / GEN-21: a complaint is answered once. */
  ComplaintAnswered: 'COMPLAINT_ANSWERED',
  // Issue 13 points 5-8 (cashier): shifts, payouts against the signed code, refunds once, AML hold.
  StationRequired: 'STATION_REQUIRED',
  ShiftNotOpen: 'SHIFT_NOT_OPEN',
  ShiftAlreadyOpen: 'SHIFT_ALREADY_OPEN',
  CodeRequired: 'CODE_REQUIRED',
  AnnulAfterPayout: 'ANNUL_AFTER_PAYOUT',
  NotRefundable: 'NOT_REFUNDABLE',
  AlreadyRefunded: 'ALREADY_REFUNDED',
  AmlReviewPending: 'AML_REVIEW_PENDING',
  BuyerIdRequired: 'BUYER_ID_REQUIRED',
  /** GEN-17 (issue 24 point 6): a cash sale over the small-notes limit records how it was paid. */
  CashCountRequired: 'CASH_COUNT_REQUIRED',
  // CFG-2: a cash count names a note or coin the hall's currency does not have.
  DenominationUnknown: 'DENOMINATION_UNKNOWN',
  /** CFG-2 (issue 26): a cash count given as the small/other split itself, not by note and coin. */
  CashCountByPiece: 'CASH_COUNT_BY_PIECE',
  // Issue 14: halls, forced password change, player admission (GEN-23/25/27).
  WrongHall: 'WRONG_HALL',
  PasswordChangeRequired: 'PASSWORD_CHANGE_REQUIRED',
  PlayerExcluded: 'PLAYER_EXCLUDED',
  /** GEN-16 / GEN-26: a named slip's prize paid to someone other than its buyer without a supervisor's override. */
  PayeeNotBuyer: 'PAYEE_NOT_BUYER',
  // Issue 18 (bingo rules): a lapsed series (BNG-12), prize shares over 100 % (BNG-52), prizes of the last game
  // unpaid (BNG-71), no reserve ball set (BNG-25), a wrong ball found after the award (BNG-83).
  SeriesLapsed: 'SERIES_LAPSED',
  PrizeSharesInvalid: 'PRIZE_SHARES_INVALID',
  PrizesUnpaid: 'PRIZES_UNPAID',
  // BNG-91 / BNG-92: an altered card's prize is not valid, for good.
  PrizeForfeited: 'PRIZE_FORFEITED',
  ReserveSetRequired: 'RESERVE_SET_REQUIRED',
  CorrectionTooLate: 'CORRECTION_TOO_LATE',
  BettingPlanRequired: 'BETTING_PLAN_REQUIRED',
  // Issue 13 (money-kiosk): nothing of value without a recorded payment.
  /** A kiosk sells only against a credit voucher (GEN-13, GEN-14): it has no drawer to take cash into. */
  KioskVoucherOnly: 'KIOSK_VOUCHER_ONLY',
  // Issue 18 (bingo sale rules): a purchase outside the posted bets (BNG-40, GEN-18, CFG-16), a face value the
  // authority did not set (BNG-10), no seat left (BNG-93), the hall's entry closed (BNG-19), the previous game's
  // cards kept (BNG-15), a card paid to someone other than its buyer where cards may not change hands (BNG-85).
  BetOutOfLimits: 'BET_OUT_OF_LIMITS',
  /** GEN-18 / BNG-40: the profile's limits bind only with the authority's reference, and the hall recorded none. */
  BetLimitsNotAuthorised: 'BET_LIMITS_NOT_AUTHORISED',
  /** GEN-1: where the profile asks, a hall sells only once the reference of its operating licence is recorded. */
  OperatingLicenceRequired: 'OPERATING_LICENCE_REQUIRED',
  /** BNG-66 / CFG-30: where the profile asks, an interconnected pot is created only with the authority's reference. */
  InterconnectedNotAuthorised: 'INTERCONNECTED_NOT_AUTHORISED',
  /** GEN-23: every sale, at a kiosk, a terminal or a counter, confirms the player is of age (shared/player-age.ts). */
  AgeNotConfirmed: 'AGE_NOT_CONFIRMED',
  /** GEN-25: a hall that sells only to identified players, and the sale names no identity document. */
  PlayerIdRequired: 'PLAYER_ID_REQUIRED',
  FaceValueNotAuthorised: 'FACE_VALUE_NOT_AUTHORISED',
  /** BNG-10 / CFG-15: where the profile names the authority that sets face values, the hall recorded none. */
  FaceValuesNotRecorded: 'FACE_VALUES_NOT_RECORDED',
  /** GEN-3: where the profile names the authority, a catalogue game is planned only with its authorisation's reference. */
  GameNotAuthorised: 'GAME_NOT_AUTHORISED',
  HallFull: 'HALL_FULL',
  HallEntryClosed: 'HALL_ENTRY_CLOSED',
  PreviousCardsNotReturned: 'PREVIOUS_CARDS_NOT_RETURNED',
  CardTransferForbidden: 'CARD_TRANSFER_FORBIDDEN',
  // Issue 18 (bingo rules): card custody after the game (BNG-87/88/89/92), retention (BNG-77), hall closure (BNG-65).
  /** BNG-87 (a) / BNG-92: the card is held as evidence (a claim, an incident, an alteration): not paid or refunded. */
  CardHeld: 'CARD_HELD',
  /** BNG-87: the card was destroyed. */
  CardDestroyed: 'CARD_DESTROYED',
  /** BNG-87: a custody move the rules do not allow (from that state, at that time). */
  CardCustodyRefused: 'CARD_CUSTODY_REFUSED',
  /** BNG-77 / CFG-37: records younger than the retention period, or with a claim pending, are not purged. */
  RetentionNotElapsed: 'RETENTION_NOT_ELAPSED',
  /** BNG-65: the hall was closed: no session, game or sale any more. */
  HallClosed: 'HALL_CLOSED',
  // Issue 18 (rules): LNS-14 / LNS-21 and LOT-28.
  /** LNS-14: the draw waits the profile's hold after the participation file is published at the close of sales. */
  PublicationHold: 'PUBLICATION_HOLD',
  /** LNS-21: the excluded or annulled plays are listed in a notarial act before the draw. */
  NotarialActRequired: 'NOTARIAL_ACT_REQUIRED',
  /** LOT-28: a regional or territory-limited lottery is sold only by sellers in halls of its territory. */
  OutsideTerritory: 'OUTSIDE_TERRITORY',
  // Issue 23 point 3: a request body is JSON or nothing, so that the guards and the route read the same value.
  UnsupportedMediaType: 'UNSUPPORTED_MEDIA_TYPE',
  /** Issue 24 point 1: a row that carries value does not match its seal (changed outside the server): not paid from. */
  RowTampered: 'ROW_TAMPERED',
  // Issue 29 point 1: a card number heard without its series, and several series of the game have it.
  SerialAmbiguous: 'SERIAL_AMBIGUOUS',
  // Issue 29 point 2: the drawer counted at a shift's close does not balance and no reason was given.
  ShiftCountDiffers: 'SHIFT_COUNT_DIFFERS',
  // Issue 29 point 3: a card's printed serial given where its signed code pays the prize (BNG-71).
  SerialNotACode: 'SERIAL_NOT_A_CODE',
  // Issue 26: a value the decree fixes, or one only the regulator may change, changed without the regulator's reference.
  RegulatorRefRequired: 'REGULATOR_REF_REQUIRED',
  // Issue 29 point 8: a lottery return names the seller who hands the fractions back, and only what that seller holds.
  /** LOT-12: part of a return range is not held by the seller named (not distributed to them, or returned already). */
  ReturnNotHeld: 'RETURN_NOT_HELD',
  /** LOT-12: a range with fractions distributed to sellers is returned by naming the seller who hands it back. */
  ReturnSellerRequired: 'RETURN_SELLER_REQUIRED',
  /** LOT-12: unsold tickets are returned before the close of sales; after it the draw's list is fixed. */
  ReturnAfterClose: 'RETURN_AFTER_CLOSE',
  /** CFG-39: the AJ logo and the MAE signature are uploaded as PNG files; anything else is refused. */
  ImageNotPng: 'IMAGE_NOT_PNG',
  /** CFG-39: an uploaded image over the size the ticket sheet needs. */
  ImageTooLarge: 'IMAGE_TOO_LARGE',
  /** PRM-9: a later draw of a successive plan closed or drawn before the earlier ones are settled. */
  DrawOutOfOrder: 'DRAW_OUT_OF_ORDER',
  // PRM-2: a points tómbola's cash desk.
  /** PRM-2: the tickets presented do not reach the figure of the object asked for. */
  PointsShort: 'POINTS_SHORT',
  /** PRM-2: a ticket presented was already used to take an object (each ticket once; points are not carried over). */
  TicketAlreadyUsed: 'TICKET_ALREADY_USED',
  /** PRM-2: the object asked for was already taken (each object on display is handed over once). */
  ObjectTaken: 'OBJECT_TAKEN',
  /** PRM-2: the tickets presented together are not all of the same points tómbola. */
  OtherTombola: 'OTHER_TOMBOLA',
} as const
export type ErrorCode = (typeof ErrorCode)[keyof typeof ErrorCode]

export class DomainError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details?: unknown,
  ) {
    super(message)
    this.name = 'DomainError'
  }
}

export function fail(code: ErrorCode, message: string, details?: unknown): never {
  throw new DomainError(code, message, details)
}
