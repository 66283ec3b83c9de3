/**
 * Who may do what (BNG-94 to BNG-97, issue 9). Every HTTP route and socket event names one permission; this
 * table says which roles hold it. People: director, jefe de sala, jefe de mesa, jefe de mesa-cajero, locutor, cajero,
 * the AML officer, the lottery operator, and the auditor and inspector who only read (issue 14 point 3).
 * Enrolled devices: kiosk, cashier station, display (read only). `public` means anyone, even unauthenticated.
 */
export const Role = {
  Director: 'director',
  FloorManager: 'floor_manager',
  Caller: 'caller',
  Cashier: 'cashier',
  Auditor: 'auditor',
  // Issue 14 point 3: the roles as BNG-94/96 and GEN-9 name them, beside the five above (kept as they were).
  /** Jefe de Sala (BNG-96): runs the hall under the director; decides suspensions, witnesses recounts. */
  HallManager: 'hall_manager',
  /** Jefe de Mesa-Cajero (BNG-96): the jefe de mesa who also keeps the prize money. */
  TableCashier: 'table_cashier',
  /** Funcionario Responsable (GEN-9): files or dismisses the anti-money-laundering reports. */
  AmlOfficer: 'aml_officer',
  /** Runs lotto, numbered lotteries and raffles (no bingo table duties). */
  LotteryOperator: 'lottery_operator',
  /** The regulator's inspector (BNG-97 "view-only inspector"): reads minutes, journal, proofs and registers. */
  Inspector: 'inspector',
  /** Issue 28: the regulator's own account: reads the signed control feed of its halls, and nothing else. */
  Regulator: 'regulator',
  Kiosk: 'kiosk',
  CashierStation: 'cashier_station',
  Display: 'display',
  /** Issue 27: an electronic bingo terminal (BNG-101). */
  Terminal: 'terminal',
  Public: 'public',
} as const
export type Role = (typeof Role)[keyof typeof Role]

export const ALL_ROLES: readonly Role[] = Object.values(Role)

const staff = [Role.Director, Role.HallManager, Role.FloorManager, Role.TableCashier] as const
const table = [...staff, Role.Caller] as const
const cash = [Role.Cashier, Role.TableCashier, Role.CashierStation] as const
/** Those who only read, and may never change anything (BNG-97). */
const readers = [Role.Auditor, Role.Inspector] as const
const lotteryStaff = [Role.Director, Role.HallManager, Role.LotteryOperator] as const

export const permissions = {
  /** Hall list, game state, proofs, public keys: what the hall display and any player may see. */
  'hall.read': [Role.Public],
  'game.read': [Role.Public],
  'hall.admin': [Role.Director],
  /**
   * RNG-30 (004 Bingo VI.1): the central's camera image of a simultaneous game, for the enrolled displays of the halls
   * that play it (the hall guard checks the game's halls); no one else watches the stream through the server.
   */
  'game.central_video': [Role.Display],
  'users.admin': [Role.Director],
  'session.open': staff,
  'session.close': staff,
  'game.announce': staff,
  'game.sales': table,
  /**
   * BNG-16 / BNG-97 (002 §6.1.5): the close of sales is the cut-off the Jefe de Mesa announces. The locutor may press
   * it only with a jefe's credential beside him (X-Bolillo-Second-Person holding this permission); staff close alone.
   */
  'game.sales.close': staff,
  // BNG-73: each game's closing entry is signed by a jefe of the floor, not the director (games.ts JEFE_ROLES).
  'game.closing.sign': [Role.HallManager, Role.FloorManager, Role.TableCashier],
  /**
   * BNG-27 (002 §6.1.5, Bolivia): the ball recount is made in the presence of the Director de Bingo; the profile's
   * `ballSetChangeWitness: 'director'` asks for this permission of the witness instead of ball-set.witness.
   */
  'recount.witness.director': [Role.Director],
  'game.sell': [...table, ...cash, Role.Kiosk],
  'game.draw': table,
  'game.claim': table,
  'game.window': staff,
  'game.incident': staff,
  /** Issue 15 point 4: the second person who confirms an annulment (checked on that person, not the caller). */
  'game.annul.confirm': staff,
  /**
   * BNG-74 / BNG-94 (Bolivia): the Director de Bingo co-signs every incident entry beside the jefe who declares it.
   * The director only: the text names that office, and the jefe de sala (BNG-96) is Cantabria's, where no
   * co-signature is required. Checked on the second person (incident-signatures.ts), not on the caller.
   */
  'incident.cosign': [Role.Director],
  'prize.pay': [...staff, ...cash],
  'ticket.validate': [...staff, ...cash, Role.Kiosk, ...readers],
  'ticket.pay': [...staff, ...cash],
  /**
   * Issue 29: a card's state found by its public serial within a game (card-lookup.ts): the hall's staff and cash
   * desks, and the readers; not a kiosk, whose credential has no business listing which serials won or were paid.
   */
  'ticket.lookup': [...staff, ...cash, ...readers],
  'voucher.sell': [...staff, ...cash],
  'voucher.redeem': [Role.Kiosk, ...cash, ...staff],
  /** §8 lost/stolen reports (LST-4, LST-5): staff only, with the ticket's code or a documented report (issue 14). */
  'ticket.block': [Role.Director, Role.HallManager, Role.FloorManager],
  /** Reversing a block: the director, with a second person (issue 14 point 6). */
  'ticket.unblock': [Role.Director],
  /** GEN-17 records: read by the responsible officer (GEN-9), the director and the readers; never the cashier. */
  'aml.review': [Role.Director, Role.AmlOfficer, ...readers],
  /** GEN-9: only the responsible officer (or the director standing in) files or dismisses a report. */
  'aml.decide': [Role.AmlOfficer, Role.Director],
  /**
   * GEN-9 / GEN-10 (issue 24 point 2): the person behind a record (document, key, a person's day by document) is read
   * by the officer, the director and the regulator's inspector; an auditor audits the records without it.
   */
  'aml.identity': [Role.AmlOfficer, Role.Director, Role.Inspector],
  /** BNG-25/27 (BNG-94): the second person present at a ball-set change or a manual recount. */
  'ball-set.witness': [Role.Director, Role.HallManager],
  /** GEN-23/25/27: the exclusion list of self-excluded and prohibited players. */
  'players.read': [...staff, ...cash, Role.AmlOfficer, ...readers],
  'players.exclude': [Role.Director, Role.HallManager, Role.AmlOfficer],
  'device.admin': [Role.Director],
  'minutes.read': [...staff, ...readers],
  'journal.read': [...staff, ...readers, Role.AmlOfficer],
  'report.read': [...staff, ...readers, ...cash, Role.LotteryOperator],
  'lottery.admin': [Role.Director, Role.LotteryOperator],
  /** INS-3: opening an instant batch's sealed seed for an audit. Not the director who runs the sale. */
  'instant.audit': [Role.Auditor],
  /**
   * Issue 24 point 3: an instant game's reconciliation by prize tier is the lottery operator's (the director, the
   * lottery operator) and its auditors'; never a seller's (cashiers, stations, kiosks, the hall's floor staff), who
   * hold packs and must not learn which pack holds which prizes.
   */
  'instant.reconcile': [Role.Director, Role.LotteryOperator, ...readers],
  // Issue 13 points 5-7 (cashier): a person opens and closes a shift at a station; refunds at a till or, onto a
  // voucher only, at a kiosk; a misprint refund is approved by a second person of the floor staff (INS-9).
  // The table's cash is kept in the shift of whoever sells there (BNG-96: the jefe de mesa-cajero, or the locutor
  // selling at the table's enrolled station), so the caller opens and closes his own table shift too.
  'shift.open': [...staff, Role.Cashier, Role.Caller],
  /** Who is at this station and its open shift (GET /api/shifts/current): ticket.validate's roles and the caller. */
  'shift.current': [...staff, ...cash, Role.Kiosk, ...readers, Role.Caller],
  // Issue 29 point 1: the caller refunds at his table the annulled game's cards handed back to it (BNG-86), from
  // the table shift he sold them in.
  'ticket.refund': [...staff, ...cash, Role.Kiosk, Role.Caller],
  /**
   * Issue 23 point 5: a ticket that failed to print after its sale is reprinted at a kiosk (the player shows the
   * voucher that paid) or at a cash desk of the sale's hall, marked REIMPRESIÓN n.
   */
  'ticket.reprint': [...staff, ...cash, Role.Kiosk],
  'refund.approve': staff,
  'lottery.sell': [Role.Kiosk, ...cash, ...staff, Role.LotteryOperator],
  'lottery.draw': [...staff, ...lotteryStaff],
  // Issue 13 point 4 (lottery helper): looking a lotto slip up by its receipt number (no bearer code ever; the
  // player's document only to roles holding ticket.pay). Not a kiosk: it has no business reading another player's slip.
  /**
   * GEN-16 / GEN-26: the supervisor who authorises paying a named slip's prize to someone the buyer authorised
   * (checked on the second person). Those who run the lotto: the director, the jefe de sala, the lottery operator.
   */
  'payee.override': lotteryStaff,
  'lotto.slip.read': [...staff, ...cash, ...readers, Role.LotteryOperator],
  /** Issue 18 (BNG-52, CFG-17, BNG-102): a hall's Plan de Apuestas, licence options and derived bingo versions. */
  'hall.rules': [Role.Director],
  /** Issue 18, INS-8: voiding an instant ticket the player damaged is the operator's decision: floor staff, not the till. */
  'instant.void': staff,
  /** Issue 18, BNG-72 / GEN-21 / BNG-76: staff record a player's complaint and the manual-book markers; the hall's management answers. */
  'complaints.record': [...staff, Role.Caller, Role.Cashier],
  'complaints.answer': [Role.Director, Role.HallManager],
  /**
   * Issue 18, BNG-87/88: collecting the played cards after a game (002 §6.1.5: the cashier collects them; the floor
   * staff run the table) and archiving the winners. People only: a station's or kiosk's credential does not.
   */
  'card.collect': [...staff, Role.Cashier, Role.Caller],
  /** BNG-87 (a): holding a card as evidence of a claim or incident (floor staff). */
  'card.hold': staff,
  /** BNG-92: the cashier (or floor staff) holds a presented card found altered or not matching its code. */
  'card.tampered': [...staff, Role.Cashier],
  /** BNG-87 (a): releasing a held card on the authority's decision; destroying cards (BNG-87), with a second person. */
  'card.release': [Role.Director],
  'card.destroy': [Role.Director, Role.HallManager],
  /** The second person present at a destruction of cards or a purge of old records (checked on that person). */
  'records.witness': staff,
  /** BNG-77 / CFG-37: purging records past their retention period (the director, with a second person). */
  'records.purge': [Role.Director],
  /** BNG-65: closing a hall for good and handing over its prima fund (the director, with a second person). */
  'hall.close': [Role.Director],
  /**
   * Issue 28: the control feed's signed batches (GET /api/regulator/batches): the regulator of the hall, and the
   * readers. Read only; hall-scoped by the person's halls; rate-limited on its own.
   */
  'regulator.read': [Role.Regulator, ...readers],
  /** Issue 28: the feed's state (last batch of each chain, the server's self-verification) for the back office. */
  'regulator.state': [Role.Director, Role.Regulator, ...readers],
  /**
   * Issue 27 (BNG-101): a terminal's player session: open it with a voucher, buy virtual cards, claim, end it. The
   * enrolled terminal only: the session, its cards and its balance are that device's, never named in a body.
   */
  'terminal.play': [Role.Terminal],
  /** Issue 27: a lost terminal session's balance paid back by the cash desk against the original voucher. */
  'terminal.recover': [...staff, ...cash],
  /** Issue 27: cash loaded onto a terminal's session at a cash desk (the cash into the loader's drawer). */
  'terminal.load': [...staff, ...cash],
  /** Issue 27 (BNG-101, CFG-33): the authority's terms for the hall's terminals, with its reference. */
  'terminal.terms': [Role.Director],
} as const satisfies Record<string, readonly Role[]>
export type Permission = keyof typeof permissions

/**
 * The actions whose request the exclusion list is asked about at the door (GEN-23, GEN-27: "no podrán participar en
 * ningún juego", "la exclusión del juego", 002 §1.2.2.2 and §1.2.3): buying a means to play (a voucher, cards, slips,
 * instant tickets, credit on a terminal). Collecting is decided by the payout itself, in its own transaction, from
 * the payee and the buyer it reads (cashdesk/payouts.ts, cashdesk/ticket-desk.ts, cashdesk/vouchers.ts): only it
 * knows whether what it pays is a prize (withheld from an excluded person) or his own stake refunded (returned to
 * him, GEN-21 (5)). An excluded person keeps every other right, among them to lodge a complaint (GEN-21 (4), 002
 * §1.2.2.1: "formular sus reclamos ante las instancias correspondientes"): the identity a complaint names is not
 * checked against the list.
 */
export const PLAY_OR_PRIZE: ReadonlySet<Permission> = new Set<Permission>([
  'voucher.sell',
  'game.sell',
  'lottery.sell',
  'terminal.load',
])

/** Socket events (client -> server). All are reads: a display can only watch. */
export const socketPermissions = {
  'game:watch': 'game.read',
  'hall:watch': 'hall.read',
} as const satisfies Record<string, Permission>

export function isAllowed(permission: Permission, role: Role): boolean {
  const roles = permissions[permission] as readonly Role[]
  return roles.includes(Role.Public) || roles.includes(role)
}
