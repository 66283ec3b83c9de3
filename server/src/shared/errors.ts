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
  MinimumParticipation: 'MINIMUM_PARTICIPATION',
  BallAlreadyDrawn: 'BALL_ALREADY_DRAWN',
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
  BallSetExhausted: 'BALL_SET_EXHAUSTED',
  BallSetRequired: 'BALL_SET_REQUIRED',
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
  NotAWinner: 'NOT_A_WINNER',
  PrizePending: 'PRIZE_PENDING',
  TicketExpired: 'TICKET_EXPIRED',
  TicketVoid: 'TICKET_VOID',
  TicketBlocked: 'TICKET_BLOCKED',
  PayeeIdRequired: 'PAYEE_ID_REQUIRED',
  // Instant lottery (issue #7): a pre-printed ticket whose pack was never activated on arrival (INS-12).
  PackNotActivated: 'PACK_NOT_ACTIVATED',
  /** Issue 15: an instant batch's seed comes from the entropy source; a seed sent by a person is refused. */
  TypedSeedRefused: 'TYPED_SEED_REFUSED',
  // Issue 15 point 4: a ball typed by hand into an RNG game (its balls come only from the committed order).
  RngNoManualBall: 'RNG_NO_MANUAL_BALL',
  // Issue 15 point 4: annulling a game needs a second person (floor manager or director) and a reason.
  SecondPersonRequired: 'SECOND_PERSON_REQUIRED',
  // Issue 18 (bingo rules): a lapsed series (BNG-12), prize shares over 100 % (BNG-52), prizes of the last game
  // unpaid (BNG-71), no reserve ball set (BNG-25), a wrong ball found after the award (BNG-83).
  SeriesLapsed: 'SERIES_LAPSED',
  PrizeSharesInvalid: 'PRIZE_SHARES_INVALID',
  PrizesUnpaid: 'PRIZES_UNPAID',
  ReserveSetRequired: 'RESERVE_SET_REQUIRED',
  CorrectionTooLate: 'CORRECTION_TOO_LATE',
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
