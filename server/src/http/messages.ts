import type { ErrorCode } from '../shared/errors.ts'

/** What people read when something is refused: Spanish first, English second (per Accept-Language). */
export const messages: Record<
  ErrorCode | 'INTERNAL' | 'PAYLOAD_TOO_LARGE' | 'ROUTE_NOT_FOUND',
  { es: string; en: string }
> = {
  VALIDATION_FAILED: { es: 'Los datos enviados no son válidos.', en: 'The data sent is not valid.' },
  NOT_FOUND: { es: 'No existe.', en: 'Not found.' },
  ROUTE_NOT_FOUND: { es: 'Esa dirección no existe.', en: 'No such route.' },
  GAME_NOT_FOUND: { es: 'La partida no existe.', en: 'The game does not exist.' },
  SESSION_NOT_FOUND: { es: 'La sesión no existe.', en: 'The session does not exist.' },
  SERIAL_AMBIGUOUS: {
    es: 'Ese número de cartón está en varias series de esta partida: elija la serie.',
    en: 'That card number is in several series of this game: choose the series.',
  },
  SHIFT_COUNT_DIFFERS: {
    es: 'El efectivo contado no cuadra con lo que debe haber en la caja. Cuente de nuevo; si la diferencia es real, escriba el motivo en la nota y cierre otra vez.',
    en: 'The cash counted does not match what the drawer should hold. Count again; if the difference is real, write the reason in the note and close again.',
  },
  SERIAL_NOT_A_CODE: {
    es: 'Eso es la serie del cartón, no su código: el premio se paga contra el cartón entregado intacto (BNG-71). Lea su código QR o, si no se lee, teclee el código impreso debajo del QR (empieza por C). La serie sola no basta, porque la serie ganadora se anuncia en la sala.',
    en: "That is the card's serial, not its code: the prize is paid against the card handed in intact (BNG-71). Scan its QR code or, if it can't be read, type the code printed under the QR (it starts with C). The serial alone is not enough, because the winning serial is announced in the hall.",
  },
  RETURN_NOT_HELD: {
    es: '{seller} no tiene todo ese rango: de {wanted} fracciones tiene {held} sin devolver. Solo se devuelven fracciones entregadas a ese vendedor y aún no devueltas: revise el rango en el registro de distribución.',
    en: '{seller} does not hold all of that range: of {wanted} fractions it holds {held} not yet returned. Only fractions distributed to that seller and not returned can be returned: check the range in the distribution register.',
  },
  RETURN_SELLER_REQUIRED: {
    es: 'Ese rango tiene {held} fracciones entregadas a vendedores: elija el vendedor que las devuelve.',
    en: 'That range has {held} fractions distributed to sellers: choose the seller who hands them back.',
  },
  RETURN_AFTER_CLOSE: {
    es: 'La venta de este sorteo ya está cerrada: los billetes no vendidos se devuelven antes del cierre, y después no cambia la lista del sorteo.',
    en: "This draw's sales are closed: unsold tickets are returned before the close, and after it the draw's list does not change.",
  },
  REGULATOR_REF_REQUIRED: {
    es: 'Ese valor lo fija el reglamento o solo puede cambiarlo la autoridad de juego: indique la referencia de su resolución (o no puede cambiarse en absoluto).',
    en: 'That value is fixed by the regulation or only the gaming authority may change it: give the reference of its resolution (or it cannot be changed at all).',
  },
  TICKET_NOT_FOUND: {
    es: 'El cartón o boleto no existe en esta partida.',
    en: 'The card or ticket does not exist in this game.',
  },
  ILLEGAL_TRANSITION: {
    es: 'Esa acción no está permitida en el estado actual de la partida.',
    en: 'That action is not allowed in the current state of the game.',
  },
  SALES_CLOSED: { es: 'La venta de cartones está cerrada.', en: 'Card sales are closed.' },
  SALES_NOT_OPEN: { es: 'La venta de cartones aún no está abierta.', en: 'Card sales are not open yet.' },
  SERIES_EXHAUSTED: { es: 'No quedan cartones suficientes en la serie.', en: 'Not enough cards left in the series.' },
  SERIES_RULE_VIOLATED: {
    es: 'La segunda serie no cumple las condiciones del reglamento.',
    en: 'The second series does not meet the regulation.',
  },
  DUPLICATE_CARD: { es: 'Ese cartón ya se vendió en esta partida.', en: 'That card was already sold in this game.' },
  NUMBERS_TAKEN: {
    es: 'Esos números ya están en otro cartón de esta partida: elija otros números. No se vendió nada.',
    en: 'Those numbers are already on another card of this game: choose other numbers. Nothing was sold.',
  },
  CHOSEN_NUMBERS_INVALID: {
    es: 'Los números elegidos no son válidos: cada cartón lleva la cantidad de números distintos que fija la partida, dentro de su universo.',
    en: 'The numbers chosen are not valid: each card holds the number of distinct numbers the game sets, within its universe.',
  },
  CHOSEN_NUMBERS_CHANNEL: {
    es: 'En esta partida el jugador elige sus números: se vende solo en caja o en el quiosco, no en mesa ni en terminal.',
    en: 'In this game the player chooses his numbers: it is sold only at the cash desk or the kiosk, not at the table or a terminal.',
  },
  MINIMUM_PARTICIPATION: {
    es: 'No se alcanzó la participación mínima para iniciar la partida.',
    en: 'The minimum participation to start the game was not reached.',
  },
  BALL_ALREADY_DRAWN: { es: 'Esa bola ya salió en esta partida.', en: 'That ball was already drawn in this game.' },
  CALLING_TOO_SOON: {
    es: 'Todavía no: la sala tiene fijado un tiempo mínimo para este paso. Espere e inténtelo de nuevo.',
    en: 'Not yet: the hall has a minimum time for this step. Wait and try again.',
  },
  BALL_OUT_OF_RANGE: { es: 'Esa bola no pertenece al juego de bolas.', en: 'That ball is not in the ball set.' },
  NO_BALLS_LEFT: { es: 'Ya salieron todas las bolas.', en: 'Every ball has been drawn.' },
  CLAIM_REJECTED: { es: 'El cartón no tiene premio.', en: 'The card has not won.' },
  CLAIM_CLOSED: { es: 'Ya no se admiten reclamaciones en esta partida.', en: 'Claims are closed for this game.' },
  NOT_VERIFIED: { es: 'El premio no está verificado.', en: 'The prize has not been verified.' },
  ALREADY_PAID: { es: 'Este premio ya fue pagado.', en: 'This prize was already paid.' },
  INVALID_SIGNATURE: {
    es: 'Código no válido: la firma no coincide.',
    en: 'Invalid code: the signature does not match.',
  },
  ROW_TAMPERED: {
    es: 'Los datos de este valor no coinciden con su sello: fueron cambiados fuera del sistema. No se paga ni se gasta; avise al inspector (queda anotado en el diario).',
    en: 'The data of this value does not match its seal: it was changed outside the system. It is not paid or spent; call the inspector (recorded in the journal).',
  },
  CONFLICT: {
    es: 'Otra operación cambió estos datos a la vez; inténtelo de nuevo.',
    en: 'Another operation changed this at the same time; try again.',
  },
  TYPED_SEED_REFUSED: {
    es: 'La semilla de una emisión de raspaditas la toma el servidor de su fuente de entropía: nadie la escribe. Quite «seed» de la petición o la opción --seed de la orden.',
    en: 'An instant batch\'s seed is taken by the server from its entropy source: nobody types it. Remove "seed" from the request, or --seed from the command.',
  },
  BEACON_PENDING: {
    es: 'Esperando la ronda del faro público de aleatoriedad: el sorteo empieza en cuanto se publique.',
    en: 'Waiting for the public randomness beacon round: the draw starts as soon as it is published.',
  },
  DEVICE_UNAVAILABLE: { es: 'El dispositivo no está disponible.', en: 'The device is unavailable.' },
  DEVICE_NOT_CERTIFIED: {
    es: 'El dispositivo no está registrado, precintado y certificado, o no está activo: no puede usarse en el juego.',
    en: 'The device is not registered, sealed and certified, or not active: it cannot be used in play.',
  },
  DEVICE_MARKS_MISSING: {
    es: 'El equipo no tiene el código de precinto o el número de homologación que exige la normativa de su sala.',
    en: "The device lacks the seal code or type-approval number its hall's rules require.",
  },
  PRINTER_MARKS_MISSING: {
    es: 'La impresora de este equipo no está registrada con lo que exige la normativa de su sala: no puede vender ni pagar.',
    en: "This device's printer is not registered with what its hall's rules require: it cannot sell or pay.",
  },
  SOFTWARE_NOT_CERTIFIED: {
    es: 'El programa que haría esta partida no tiene un certificado registrado para esta versión en la jurisdicción de la sala.',
    en: "The software this game needs has no certificate recorded for this build in the hall's jurisdiction.",
  },
  DEMO_REFERENCE_REFUSED: {
    es: 'Esa referencia es de la demostración (empieza por DEMO), no un certificado, precinto u homologación real: este servidor no funciona en modo demostración y solo registra los reales.',
    en: 'That reference is a demo one (it starts with DEMO), not a real certificate, seal or type approval: this server does not run the demo and records only real ones.',
  },
  BALL_SET_EXHAUSTED: {
    es: 'El juego de bolas llegó a su límite de partidas: cámbielo por el de reserva.',
    en: 'The ball set has reached its game limit: change it for the reserve set.',
  },
  BALL_SET_REQUIRED: { es: 'La sala no tiene un juego de bolas activo.', en: 'The hall has no active ball set.' },
  EQUIPMENT_CHECK_FAILED: {
    es: 'La sesión no se abre: algún equipo de la sala no funciona (bombo, circuito cerrado de televisión, pantallas o sonido).',
    en: "The session does not open: some of the hall's equipment does not work (extractor, CCTV, screens or sound).",
  },
  LAYOUT_NOT_AUTHORISED: {
    es: 'Este formato de cartón no está autorizado en la sala: indique la referencia de la licencia o autorización que lo permite.',
    en: 'This card format is not authorised in the hall: give the reference of the licence or authorisation that allows it.',
  },
  LOTTO_BALL_SET_REQUIRED: {
    es: 'No hay un juego de bolas registrado del rango del sorteo, o no hay juego de reserva: regístrelos antes de extraer bolas.',
    en: "There is no registered ball set of the draw's range, or no reserve set: register them before drawing balls.",
  },
  LOTTERY_BALL_SET_REQUIRED: {
    es: 'No hay un juego de bolillos de dígitos (0 al 9) registrado para los bombos del sorteo: regístrelo antes de extraer números.',
    en: "There is no registered set of digit balls (0 to 9) for the draw's drums: register one before drawing numbers.",
  },
  BALL_SET_IN_USE: {
    es: 'Ese juego de bolas está en uso en un sorteo que se está extrayendo: cámbielo por el de reserva o termine el sorteo antes de retirarlo o marcarlo como reserva.',
    en: 'That ball set is in use by a draw being drawn: swap it for the reserve set, or finish the draw, before retiring it or marking it as the reserve.',
  },
  BALL_SET_RETIRED: {
    es: 'Ese juego de bolas está retirado: no puede volver a usarse.',
    en: 'That ball set is retired: it cannot be used again.',
  },
  PAYEE_PHONE_REQUIRED: {
    es: 'El premio de un pozo progresivo se paga con el nombre, el documento de identidad y el teléfono de contacto del ganador: anote su teléfono.',
    en: "A progressive pot's prize is paid against the winner's name, identity document and contact telephone: enter the telephone.",
  },
  IDENTITY_DOCUMENT_NOT_ACCEPTED: {
    es: 'La sala no acepta ese documento como identificación del jugador: pida la cédula de identidad o el pasaporte (en España, el DNI, el NIE o el pasaporte). Un pasaporte se escribe con la palabra «Pasaporte» antes de su número.',
    en: 'The hall does not accept that document as the player\'s identification: ask for the identity card or the passport (in Spain, the DNI, NIE or passport). Type a passport with the word "Passport" before its number.',
  },
  BALL_SET_REFERENCE_TAKEN: {
    es: 'Ya hay un juego de bolas registrado con esa referencia: cada juego se registra una sola vez, con su propia referencia.',
    en: 'A ball set with that reference is already registered: each set is registered once, under its own reference.',
  },
  RESERVE_BALL_SET_REQUIRED: {
    es: 'La sala no tiene un juego de bolas de reserva en perfecto estado: regístrelo antes de extraer bolas.',
    en: 'The hall has no reserve ball set in perfect condition: register one before drawing balls.',
  },
  ENTROPY_HEALTH_FAILED: {
    es: 'La fuente de entropía falló sus pruebas de salud: no se generan semillas.',
    en: 'The entropy source failed its health tests: no seeds are generated.',
  },
  RULE_DISABLED: {
    es: 'El perfil de la sala no permite esta operación.',
    en: "The hall's profile does not allow this.",
  },
  UNAUTHORIZED: { es: 'Debe identificarse.', en: 'Authentication required.' },
  FORBIDDEN: { es: 'Su rol no permite esta operación.', en: 'Your role does not allow this.' },
  ACCOUNT_LOCKED: {
    es: 'Cuenta bloqueada por intentos fallidos. Espere o avise al director.',
    en: 'Account locked after failed attempts. Wait or call the director.',
  },
  RATE_LIMITED: { es: 'Demasiadas peticiones. Espere un momento.', en: 'Too many requests. Wait a moment.' },
  VOUCHER_SPENT: { es: 'Este vale ya fue usado.', en: 'This voucher has already been used.' },
  VOUCHER_EXPIRED: { es: 'Este vale está caducado.', en: 'This voucher has expired.' },
  VOUCHER_INSUFFICIENT: {
    es: 'El saldo del vale no alcanza para esa compra.',
    en: 'The voucher balance does not cover that purchase.',
  },
  NOT_A_WINNER: { es: 'Este código no tiene premio.', en: 'This code has not won a prize.' },
  TERMINAL_CAP_EXCEEDED: {
    es: 'Esa compra supera el límite de apuesta fijado para los terminales.',
    en: 'That purchase exceeds the stake limit set for terminals.',
  },
  TERMINAL_GAME_TOO_SOON: {
    es: 'Hay cartones de terminal en esta partida: cada partida de bingo electrónico dura al menos {minGameSeconds} segundos (BNG-101). Espere {waitSeconds} segundos y cierre la venta de nuevo.',
    en: 'Terminal cards are in this game: each electronic bingo game lasts at least {minGameSeconds} seconds (BNG-101). Wait {waitSeconds} seconds and close sales again.',
  },
  TERMINAL_BALANCE_INSUFFICIENT: {
    es: 'El saldo no alcanza para esa compra.',
    en: 'The balance does not cover that purchase.',
  },
  TERMINAL_SESSION_CLOSED: {
    es: 'No hay una sesión abierta en este terminal: presente un vale para empezar.',
    en: 'No session is open at this terminal: present a voucher to start.',
  },
  TERMINAL_TERMS_DISCONNECTION: {
    es: 'Los términos deben decir qué pasa con los cartones de un terminal que se desconecta, como lo fije la resolución de la autoridad (BNG-101): elija una opción en «Si el terminal se desconecta» y guarde de nuevo.',
    en: "The terms must state what happens to a disconnected terminal's cards, as the authority's resolution sets it (BNG-101): choose an option under “If the terminal disconnects” and save again.",
  },
  TERMINAL_CARD_NOT_HELD: {
    es: 'Ese cartón no es de esta sesión de terminal.',
    en: 'That card does not belong to this terminal session.',
  },
  PRIZE_PENDING: {
    es: 'La partida aún no ha terminado: el premio se paga al finalizar.',
    en: 'The game has not finished yet: prizes are paid when it ends.',
  },
  TICKET_EXPIRED: {
    es: 'El plazo para cobrar este premio ha vencido.',
    en: 'The period to collect this prize has expired.',
  },
  TICKET_VOID: {
    es: 'La partida fue anulada: este cartón solo da derecho a reembolso.',
    en: 'The game was voided: this card is only refundable.',
  },
  POINTS_SHORT: {
    es: 'Los boletos presentados no suman los puntos que pide ese objeto.',
    en: 'The tickets presented do not add up to the points that object needs.',
  },
  TICKET_ALREADY_USED: {
    es: 'Uno de los boletos ya se usó para retirar un objeto: cada boleto vale una sola vez.',
    en: 'One of the tickets was already used to take an object: each ticket counts once.',
  },
  OBJECT_TAKEN: {
    es: 'Ese objeto ya fue retirado: elija otro de los que quedan.',
    en: 'That object was already taken: choose another of those left.',
  },
  OTHER_TOMBOLA: {
    es: 'Los boletos presentados juntos deben ser de la misma tómbola.',
    en: 'The tickets presented together must be of the same tombola.',
  },
  DRAW_OUT_OF_ORDER: {
    es: 'Los sorteos sucesivos se celebran en orden: primero debe liquidarse el sorteo anterior.',
    en: 'Successive draws are held in order: the earlier draw must be settled first.',
  },
  TICKET_BLOCKED: {
    es: 'Este boleto fue denunciado como extraviado o robado.',
    en: 'This ticket was reported lost or stolen.',
  },
  PAYEE_ID_REQUIRED: {
    es: 'Para este importe se requiere el documento de identidad del cobrador.',
    en: "This amount requires the payee's identity document.",
  },
  INVENTORY_CODE_REQUIRED: {
    es: 'Escanee también el código de inventario del boleto (impreso fuera del área de raspado): el premio se paga solo contra el boleto presentado, no con el código de validación solo (INS-10).',
    en: "Also scan the ticket's inventory code (printed outside the scratch area): the prize is paid only against the ticket presented, not with the validation code alone (INS-10).",
  },
  INVENTORY_CODE_MISMATCH: {
    es: 'El código de inventario no es de este boleto: escanee el exterior del mismo boleto cuyo código de validación leyó. Con códigos de dos boletos distintos no se paga, reembolsa ni anula ninguno (INS-9, INS-10).',
    en: "The inventory code is not this ticket's: scan the outside of the same ticket whose validation code you read. With the codes of two different tickets, neither is paid, refunded nor voided (INS-9, INS-10).",
  },
  PACK_NOT_ACTIVATED: {
    es: 'Boleto fuera de venta o no vendido: su paquete no fue activado, o su venta no se registró escaneándolo en caja o quiosco. No se paga ni se reembolsa (INS-12).',
    en: 'Ticket not on sale or not sold: its pack was not activated, or its sale was not recorded by scanning it at a till or kiosk. It is neither paid nor refunded (INS-12).',
  },
  RNG_NO_MANUAL_BALL: {
    es: 'En una partida con generador aleatorio no se introducen bolas a mano: la partida sigue con el orden de extracción comprometido.',
    en: 'An RNG game takes no balls typed by hand: it continues with its committed draw order.',
  },
  // Issue 13 points 5-8 (cashier)
  STATION_REQUIRED: {
    es: 'El dinero se mueve solo en una caja registrada, con una persona que haya iniciado sesión en ella.',
    en: 'Cash moves only at an enrolled cashier station, with a person logged in at it.',
  },
  SHIFT_NOT_OPEN: {
    es: 'No hay un turno abierto de esta persona en esta caja: abra el turno con el fondo contado.',
    en: 'There is no open shift of this person at this station: open the shift with the counted float.',
  },
  SHIFT_ALREADY_OPEN: {
    es: 'Esta caja ya tiene un turno abierto: ciérrelo con el arqueo antes de abrir otro.',
    en: 'This station already has an open shift: close it with its count before opening another.',
  },
  CODE_REQUIRED: {
    es: 'El premio se paga solo contra el código firmado de ese mismo cartón o boleto.',
    en: 'A prize is paid only against the signed code of that very card or ticket.',
  },
  ANNUL_AFTER_PAYOUT: {
    es: 'No se puede anular: ya se pagaron premios de esta partida.',
    en: 'It cannot be annulled: prizes of this game have already been paid.',
  },
  NOT_REFUNDABLE: {
    es: 'Este cartón o boleto no tiene derecho a devolución.',
    en: 'This card or ticket is not entitled to a refund.',
  },
  ALREADY_REFUNDED: { es: 'Este cartón o boleto ya fue reembolsado.', en: 'This card or ticket was already refunded.' },
  AML_REVIEW_PENDING: {
    es: 'Este vale se pagó con billetes pequeños por encima del límite: no se cobra en efectivo hasta que el oficial de cumplimiento revise el caso.',
    en: 'This voucher was paid with small notes over the limit: it is not cashed out until the compliance officer has reviewed the case.',
  },
  CASH_COUNT_REQUIRED: {
    es: 'Por este importe hay que contar el efectivo por billete y moneda: cuántos billetes y monedas de cada valor se entregaron.',
    en: 'For this amount, count the cash by note and coin: how many notes and coins of each value were handed over.',
  },
  DENOMINATION_UNKNOWN: {
    es: 'El recuento de efectivo incluye un billete o moneda que no existe en la moneda de la sala. Cuente solo billetes y monedas en circulación.',
    en: "The cash count includes a note or coin that does not exist in the hall's currency. Count only notes and coins in circulation.",
  },
  CASH_COUNT_BY_PIECE: {
    es: 'Cuente el efectivo por billete y moneda: cuántos billetes y monedas de cada valor se entregaron. Ya no se acepta un importe repartido a mano entre billetes pequeños y otros; la sala decide cuáles son pequeños.',
    en: 'Count the cash by note and coin: how many notes and coins of each value were handed over. An amount split by hand between small notes and others is no longer accepted; the hall decides which are small.',
  },
  BUYER_ID_REQUIRED: {
    es: 'Por el importe en billetes pequeños hay que registrar el documento de identidad del comprador.',
    en: "For this amount in small notes the buyer's identity document must be recorded.",
  },
  SECOND_PERSON_REQUIRED: {
    es: 'Esta acción necesita la confirmación de una segunda persona con el cargo necesario (por ejemplo, jefe de mesa o director), distinta de quien la pide, con su usuario y contraseña.',
    en: 'This action needs the confirmation of a second person with the required role (for example a floor manager or director), other than the requester, with their username and password.',
  },
  // Issue 18 (lottery helper): LOT-21 / LNS-22.
  DRAW_NOT_DUE: {
    es: 'Este sorteo no se realiza hoy: se sortea en la fecha de su plan o en la nueva fecha de un aplazamiento autorizado.',
    en: 'This draw does not take place today: it is drawn on its plan date or on the new date of an authorised postponement.',
  },
  ROLLOVER_UNMAPPED: {
    es: 'El dinero acumulado del sorteo anterior quedaría sin categoría: conserve esas categorías de reparto o asígnelas expresamente en el plan.',
    en: 'Money rolled over from the previous draw would have no category: keep those pari-mutuel categories or map them explicitly in the plan.',
  },
  DRAW_CANCELLED: {
    es: 'Este sorteo fue cancelado: no admite ventas ni extracciones; sus comprobantes se reintegran en caja.',
    en: 'This draw was cancelled: it takes no sales or balls; its receipts are refunded at the cashier.',
  },
  COMPLAINT_ANSWERED: { es: 'Esta reclamación ya tiene respuesta.', en: 'This complaint has already been answered.' },
  // Issue 18 (bingo rules)
  SERIES_LAPSED: {
    es: 'Esta serie no vendió cartones ni hoy ni ayer: su venta no puede continuar. Ponga a la venta una serie nueva, desde el cartón número 1.',
    en: 'This series sold no cards today or yesterday: its sale cannot continue. Put a new series on sale, from card number 1.',
  },
  PRIZE_SHARES_INVALID: {
    es: 'Los porcentajes de premios, pozos y comisión no son válidos: su suma no puede pasar del 100 % y deben coincidir con el Plan de Apuestas autorizado.',
    en: 'The prize, pot and commission percentages are not valid: they cannot add up to more than 100 % and must match the authorised betting plan.',
  },
  PRIZES_UNPAID: {
    es: 'Quedan premios sin pagar de la partida anterior: se pagan antes de anunciar la siguiente.',
    en: 'Prizes of the previous game are unpaid: they are paid before the next game is announced.',
  },
  PRIZE_FORFEITED: {
    es: 'El cartón fue presentado alterado o dañado: su premio no es válido y no se paga.',
    en: 'The card was presented altered or damaged: its prize is not valid and is not paid.',
  },
  RESERVE_SET_REQUIRED: {
    es: 'La sala no tiene un juego de bolas de reserva completo registrado: no se puede jugar.',
    en: 'The hall has no complete reserve ball set on record: play cannot start.',
  },
  CORRECTION_TOO_LATE: {
    es: 'Ya se adjudicó un premio después de esa bola: el error no puede corregirse. Si afecta de forma sustancial a la partida, anúlela con devolución.',
    en: 'A prize was awarded after that ball: the error can no longer be corrected. If it substantially affects the game, annul it with a refund.',
  },
  BETTING_PLAN_REQUIRED: {
    es: 'La sala no tiene registrado su Plan de Apuestas aprobado (porcentajes de premios): no se puede anunciar ninguna partida.',
    en: 'The hall has no approved betting plan (prize percentages) on record: no game can be announced.',
  },
  // Issue 13 (money-kiosk): nothing of value without a recorded payment.
  KIOSK_VOUCHER_ONLY: {
    es: 'Un kiosco solo vende contra un vale de crédito comprado en caja: no puede emitir cartones, boletos ni raspaditas sin cobrarlos.',
    en: 'A kiosk sells only against a credit voucher bought at the cashier: it cannot issue cards, slips or instant tickets without payment.',
  },
  AGE_NOT_CONFIRMED: {
    es: 'Antes de vender hay que confirmar que el jugador es mayor de edad (con su documento a la vista): los menores de edad no pueden jugar (GEN-23).',
    en: 'Before selling, confirm the player is of age (having seen their identity document): minors may not play (GEN-23).',
  },
  PLAYER_ID_REQUIRED: {
    es: 'Esta sala vende solo a jugadores identificados: registre el documento de identidad del comprador (en la caja, o en el vale que usa en el kiosco o el terminal) (GEN-25).',
    en: "This hall sells only to identified players: record the buyer's identity document (at the till, or on the voucher used at the kiosk or terminal) (GEN-25).",
  },
  PUBLICATION_HOLD: {
    es: 'El archivo de participación se publicó hace muy poco: el sorteo espera el plazo de publicación antes de comenzar.',
    en: 'The participation file was published too recently: the draw waits for the publication period before it starts.',
  },
  NOTARIAL_ACT_REQUIRED: {
    es: 'Hay jugadas excluidas o anuladas: registre antes el acta notarial que las lista (notario y número de acta).',
    en: 'There are excluded or annulled plays: first record the notarial act that lists them (notary and act number).',
  },
  OUTSIDE_TERRITORY: {
    es: 'Esta lotería solo se vende en su territorio autorizado, y el punto de venta está fuera de él o no tiene territorio registrado.',
    en: 'This lottery is sold only in its authorised territory, and the point of sale is outside it or has no territory on record.',
  },
  INTERNAL: { es: 'Error interno. La operación no se realizó.', en: 'Internal error. Nothing was done.' },
  PAYLOAD_TOO_LARGE: { es: 'La petición es demasiado grande.', en: 'The request is too large.' },
  // Issue 14
  WRONG_HALL: {
    es: 'Eso pertenece a otra sala: no puede actuar sobre ella.',
    en: 'That belongs to another hall: you cannot act on it.',
  },
  PASSWORD_CHANGE_REQUIRED: {
    es: 'Debe cambiar su contraseña antes de continuar.',
    en: 'You must change your password before continuing.',
  },
  PAYEE_NOT_BUYER: {
    es: 'Este boleto es nominativo: su premio se cobra solo por el comprador o por quien él autorizó. Para pagarlo a otra persona, un supervisor debe autorizarlo con su usuario y contraseña, indicando la autorización del comprador.',
    en: "This slip is named: its prize is collected only by its buyer or someone the buyer authorised. To pay another person, a supervisor must authorise it with their username and password, stating the buyer's authorisation.",
  },
  CARD_HELD: {
    es: 'Este cartón está retenido como prueba (reclamación, incidencia o cartón alterado): no se paga ni se reembolsa mientras esté retenido.',
    en: 'This card is held as evidence (a claim, an incident or an altered card): it is neither paid nor refunded while held.',
  },
  CARD_DESTROYED: {
    es: 'Este cartón fue destruido: ya no se paga ni se reembolsa.',
    en: 'This card was destroyed: it is no longer paid or refunded.',
  },
  CARD_CUSTODY_REFUSED: {
    es: 'Este cambio de estado del cartón no está permitido (los no premiados se recogen y destruyen tras la partida; los premiados se archivan al menos el plazo de conservación; los retenidos como prueba solo los libera la dirección).',
    en: "This change of the card's state is not allowed (non-winning cards are collected and destroyed after the game; winners are archived for at least the retention period; cards held as evidence are released only by the director).",
  },
  RETENTION_NOT_ELAPSED: {
    es: 'Estos registros aún están dentro del plazo de conservación o tienen una reclamación pendiente: no se pueden depurar.',
    en: 'These records are still within their retention period or have a pending claim: they cannot be purged.',
  },
  HALL_CLOSED: {
    es: 'La sala está cerrada: no se abren sesiones ni partidas ni se venden cartones.',
    en: 'The hall is closed: no sessions, games or card sales.',
  },
  PLAYER_EXCLUDED: {
    es: 'Esta persona está excluida del juego (autoexclusión o prohibición): no se le puede vender ni pagar.',
    en: 'This person is excluded from play (self-exclusion or prohibition): no sale or payout.',
  },
  BET_OUT_OF_LIMITS: {
    es: 'La compra está fuera de las apuestas mínima y máxima autorizadas de la sala (cartones por compra o por jugador en la partida). Los límites están expuestos en la sala.',
    en: "The purchase is outside the hall's authorised minimum and maximum bets (cards per purchase or per player in the game). The limits are posted in the hall.",
  },
  BET_LIMITS_NOT_AUTHORISED: {
    es: 'La sala no vende cartones: no tiene registradas sus apuestas mínima y máxima con la referencia de la resolución de la AJ que las aprueba. El director de la sala debe registrar esos límites (cartones por compra y por jugador) con la referencia de la resolución; hasta entonces no se vende en ningún canal.',
    en: "The hall sells no cards: it has no minimum and maximum bets on record with the reference of the AJ resolution that approves them. The hall's director must record those limits (cards per purchase and per player) with the resolution's reference; until then nothing is sold in any channel.",
  },
  OPERATING_LICENCE_REQUIRED: {
    es: 'La sala no vende cartones: no tiene registrada la referencia de su Licencia de Operaciones emitida por la AJ (Bolivia) o de la autorización de la Consejería (Cantabria). El director de la sala debe registrar la licencia o la autorización (referencia de la resolución, base del mínimo de participación y posiciones de juego) en las reglas de la sala; hasta entonces no se vende en ningún canal.',
    en: "The hall sells no cards: it has no reference of its AJ Operating Licence (Bolivia) or of the Consejería's authorisation (Cantabria) on record. The hall's director must record it (the resolution's reference, the minimum-participation basis and the playing positions) in the hall's rules; until then nothing is sold in any channel.",
  },
  INTERCONNECTED_NOT_AUTHORISED: {
    es: 'El bingo interconectado necesita la referencia de la resolución de la Consejería que fija sus salas, el porcentaje que se detrae, el máximo, la reserva y la escala de bolas. Indique esa referencia al crear el pozo; sin ella no se crea.',
    en: "Interconnected bingo needs the reference of the Consejería's resolution that sets its halls, the percentage deducted, the maximum, the reserve and the ball scale. Give that reference when creating the pot; without it none is created.",
  },
  FACE_VALUE_NOT_AUTHORISED: {
    es: 'Ese valor facial de cartón no está entre los autorizados para la sala.',
    en: 'That card face value is not among those authorised for the hall.',
  },
  GAME_NOT_AUTHORISED: {
    es: 'Este juego no tiene la referencia de la autorización administrativa previa de {authority}: sin ella no se planifica ni se vende. Indique la referencia de la resolución que lo autoriza.',
    en: 'This game has no reference of the prior administrative authorisation of {authority}: without it it is neither planned nor sold. Give the reference of the resolution that authorises it.',
  },
  FACE_VALUES_NOT_RECORDED: {
    es: 'La sala no tiene registrados los valores faciales de cartón que fijó la Consejería competente en materia de juego: no se crean series, no se anuncian partidas ni se venden cartones en ningún canal. El director de la sala debe registrar esos valores en las reglas de venta con la referencia de la resolución de la Consejería.',
    en: "The hall has no card face values on record as set by the Consejería competente en materia de juego: no series is created, no game announced and no card sold in any channel. The hall's director must record those values in the sale rules with the reference of the Consejería's resolution.",
  },
  HALL_FULL: {
    es: 'Todas las posiciones de juego sentadas de la sala están ocupadas: no se admiten más jugadores (no se permite el juego de pie).',
    en: 'Every seated playing position in the hall is taken: no more players are admitted (standing play is not allowed).',
  },
  HALL_ENTRY_CLOSED: {
    es: 'La entrada a la sala está cerrada desde que comenzó la lectura de los datos de la partida: no se admite a nadie ni se venden cartones para ella hasta que termine.',
    en: "Entry to the hall is closed since the reading of the game's data began: no one is admitted and no cards are sold for it until it ends.",
  },
  PREVIOUS_CARDS_NOT_RETURNED: {
    es: 'Para comprar cartones, el jugador debe entregar antes los cartones jugados en la partida anterior.',
    en: 'To buy cards, the player must first hand back the cards played in the previous game.',
  },
  CARD_TRANSFER_FORBIDDEN: {
    es: 'Este cartón fue comprado por otro jugador y no puede transferirse: su premio se paga solo a quien lo compró.',
    en: 'This card was bought by another player and cannot be transferred: its prize is paid only to its buyer.',
  },
  // Issue 23 point 3
  UNSUPPORTED_MEDIA_TYPE: {
    es: 'Los datos se envían en formato JSON (Content-Type: application/json).',
    en: 'Data is sent as JSON (Content-Type: application/json).',
  },
  // CFG-39
  IMAGE_NOT_PNG: {
    es: 'La imagen debe ser un archivo PNG válido.',
    en: 'The image must be a valid PNG file.',
  },
  IMAGE_TOO_LARGE: {
    es: 'La imagen es demasiado grande (máximo 128 KiB).',
    en: 'The image is too large (at most 128 KiB).',
  },
}

/**
 * Issue 29 point 10 and 7: an UNAUTHORIZED that is not "identify yourself" says what happened (sent in
 * `details.reason`, replacing the code's message): a wrong password, or a device whose credential died.
 */
export const unauthorizedReasons = {
  login: {
    es: 'Usuario o contraseña incorrectos. Si falla varias veces, la cuenta se bloquea un rato: espere o pida al director que la desbloquee.',
    en: 'Wrong username or password. After several failures the account is locked for a while: wait, or ask the director to unlock it.',
  },
  device: {
    es: 'Este equipo ya no está autorizado: su credencial fue revocada o sustituida. Pida al director que lo vuelva a dar de alta.',
    en: 'This device is no longer authorised: its credential was revoked or replaced. Ask the director to enrol it again.',
  },
} as const
export type UnauthorizedReason = keyof typeof unauthorizedReasons

/** What a presented code is, as the refusals name it (the cashier screen's words: kiosk/src/cashier/texts.ts). */
const presentedTicket = {
  card: { es: 'Este cartón', en: 'This card' },
  lotto: { es: 'Este boleto de lotto', en: 'This lotto slip' },
  lottery: { es: 'Este billete de lotería', en: 'This lottery ticket' },
  raffle: { es: 'Este boleto de rifa', en: 'This raffle ticket' },
  instant: { es: 'Esta raspadita', en: 'This instant ticket' },
} as const

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`

/**
 * Issue 29 point 10: refusals that depend on a number say it (the hall's limit, from the refusal's own details, so
 * the screen never keeps a second copy of the server's constants). Undefined: the code's plain message.
 */
export function detailedMessage(code: string, details: unknown, lang: Lang): string | undefined {
  const d = (details ?? {}) as Record<string, unknown>
  if (code === 'UNAUTHORIZED' && typeof d.reason === 'string' && d.reason in unauthorizedReasons)
    return unauthorizedReasons[d.reason as UnauthorizedReason][lang]
  // A refusal names what was presented: "cartón" is the bingo word, not the lotto slip's or the raspadita's.
  if (code === 'NOT_A_WINNER' && typeof d.product === 'string' && d.product in presentedTicket)
    return lang === 'es'
      ? `${presentedTicket[d.product as keyof typeof presentedTicket].es} no tiene premio.`
      : `${presentedTicket[d.product as keyof typeof presentedTicket].en} has not won a prize.`
  // Issue 29: a card's printed code typed with a mistake: what to check, never "forged".
  if (code === 'TICKET_NOT_FOUND' && d.code === 'printed')
    return lang === 'es'
      ? 'Ningún cartón tiene este código impreso: revise lo tecleado (el código bajo el QR, empieza por C) e inténtelo de nuevo.'
      : 'No card has this printed code: check what was typed (the code under the QR, it starts with C) and try again.'
  // Issue 29: a card's QR code that does not verify (payment, block): damaged or misread, and what to do.
  if (code === 'INVALID_SIGNATURE' && d.code === 'card_qr')
    return lang === 'es'
      ? 'No se pudo leer bien el código del cartón: el QR está dañado o el código se leyó o tecleó mal. Vuelva a escanearlo; si no se lee, teclee el código impreso bajo el QR (empieza por C).'
      : "The card's code could not be read correctly: the QR is damaged or the code was misread or mistyped. Scan it again; if it can't be read, type the code printed under the QR (it starts with C)."
  // Issue 24 point 4: a draw device or ball set refused because its seal, certificate or approval is the demo's.
  const demoRefused =
    (Array.isArray(d.demo) && d.demo.length > 0) ||
    (Array.isArray(d.refused) && (d.refused as Array<{ demo?: unknown[] }>).some((r) => r.demo?.length))
  // INS-3 / RNG-27: the instant generator's certificate, and what keeps it from counting, in words.
  if (code === 'DEVICE_NOT_CERTIFIED' && d.rule === 'INS-3' && Array.isArray(d.problems)) {
    const why = {
      'no-certificate': {
        es: 'no hay certificado configurado',
        en: 'no certificate is configured',
      },
      'unsigned-certificate': {
        es: 'el certificado es una referencia escrita a mano, sin la firma del certificador',
        en: "the certificate is a typed reference without the certifier's signature",
      },
      'unregistered-certifier': {
        es: 'el certificador que lo firma no está registrado',
        en: 'the certifier who signed it is not registered',
      },
      'bad-signature': {
        es: 'la firma no corresponde a la clave registrada del certificador',
        en: "the signature does not verify under the certifier's registered key",
      },
      'certifier-withdrawn': {
        es: 'el certificador que lo firmó fue dado de baja',
        en: 'the certifier who signed it has been withdrawn',
      },
      'build-not-certified': {
        es: 'certifica otra versión del generador, no la que está en marcha',
        en: 'it certifies another build of the generator, not the running one',
      },
      'not-yet-valid': { es: 'aún no está vigente', en: 'it is not yet valid' },
      expired: { es: 'está vencido', en: 'it has expired' },
    } as const
    const reasons = (d.problems as string[]).filter((p): p is keyof typeof why => p in why).map((p) => why[p][lang])
    if (reasons.length)
      return lang === 'es'
        ? `No se puede generar la emisión de raspaditas: el sistema de generación no tiene un certificado válido de un certificador autorizado por la AJ (${reasons.join('; ')}).`
        : `The instant batch cannot be generated: the generation system has no valid certificate from an AJ-authorised certifier (${reasons.join('; ')}).`
  }
  if (code === 'DEVICE_NOT_CERTIFIED' && demoRefused)
    return lang === 'es'
      ? 'El dispositivo de sorteo no puede usarse: su precinto, certificado u homologación registrado es de la demostración (DEMO) y en un servidor sin demostración no vale. Registre el real en la ficha del dispositivo.'
      : 'The draw device cannot be used: its seal, certificate or type approval on record is a demo one (DEMO), which counts for nothing on a server without the demo. Record the real one on the device.'
  if (code === 'BALL_SET_REQUIRED' && demoRefused)
    return lang === 'es'
      ? 'El juego de bolas activo tiene un número de homologación de la demostración (DEMO), que en un servidor sin demostración no vale: registre un juego homologado y cámbielo.'
      : 'The active ball set has a demo type-approval number (DEMO), which counts for nothing on a server without the demo: register a type-approved set and change to it.'
  if ((code === 'LOTTO_BALL_SET_REQUIRED' || code === 'LOTTERY_BALL_SET_REQUIRED') && demoRefused)
    return lang === 'es'
      ? 'El juego de bolas de este sorteo tiene una referencia de precinto de la demostración (DEMO), que en un servidor sin demostración no vale: registre un juego precintado y úselo.'
      : "This draw's ball set has a demo seal reference (DEMO), which counts for nothing on a server without the demo: register a sealed set and use it."
  if (code === 'DEVICE_MARKS_MISSING' && Array.isArray(d.missing)) {
    // Issue 26: names what is missing, and whether the device is being enrolled or was stopped selling or paying.
    const words = {
      'seal-code': { es: 'el código de precinto de seguridad (AJ)', en: 'the security seal code' },
      'type-approval': { es: 'el número de homologación', en: 'the type-approval number' },
    } as const
    const named = (d.missing as string[])
      .filter((m): m is keyof typeof words => m in words)
      .map((m) => words[m][lang])
      .join(lang === 'es' ? ' y ' : ' and ')
    const device = typeof d.deviceName === 'string' ? d.deviceName : null
    if (named && d.at === 'use' && Array.isArray(d.demo) && d.demo.length)
      return lang === 'es'
        ? `${device ? `El equipo «${device}»` : 'Este equipo'} no puede vender ni pagar: le falta ${named}; la referencia registrada es de la demostración (DEMO) y en un servidor sin demostración no vale. Pida al director que registre la real en la ficha del equipo.`
        : `${device ? `Device "${device}"` : 'This device'} cannot sell or pay: it lacks ${named}; the reference on record is a demo one (DEMO), which counts for nothing on a server without the demo. Ask the director to record the real one on the device.`
    if (named && d.at === 'use')
      return lang === 'es'
        ? `${device ? `El equipo «${device}»` : 'Este equipo'} no puede vender ni pagar: le falta ${named}. Pida al director que lo registre en la ficha del equipo.`
        : `${device ? `Device "${device}"` : 'This device'} cannot sell or pay: it lacks ${named}. Ask the director to record it on the device.`
    if (named)
      return lang === 'es'
        ? `La normativa de la sala exige ${named} para dar de alta este equipo.`
        : `The hall's rules require ${named} to enrol this device.`
  }
  if (code === 'RULE_DISABLED' && d.rule === 'CFG-21') {
    // CFG-21 (002 §6.1.5 "deberán cantarlo"; 004 Bingo III): why the system may not claim for the players here.
    if ('licence' in d && !('profileId' in d))
      return typeof d.licence === 'string'
        ? lang === 'es'
          ? `La Licencia de Operaciones ${d.licence} de la sala no autoriza que el sistema cante por los jugadores: cada jugador canta su línea o su bingo. Solo se activa si la licencia lo autoriza y así se registra.`
          : `The hall's Operating Licence ${d.licence} does not allow the system to claim for the players: each player calls their own line or bingo. It can be switched on only where the licence allows it and is recorded so.`
        : lang === 'es'
          ? 'La sala no tiene registrada una Licencia de Operaciones que autorice que el sistema cante por los jugadores: cada jugador canta su línea o su bingo.'
          : 'The hall has no Operating Licence on record allowing the system to claim for the players: each player calls their own line or bingo.'
    return lang === 'es'
      ? 'La normativa de la sala no permite que el sistema cante por los jugadores, diga lo que diga la licencia: el jugador canta su línea o su bingo.'
      : "The hall's rules never let the system claim for the players, whatever the licence says: the player calls their own line or bingo."
  }
  if (code === 'PRINTER_MARKS_MISSING' && Array.isArray(d.missing)) {
    // Issue 26 (GEN-4, GEN-7, BNG-9): which device, and what its printer's record lacks.
    const words = {
      'no-printer': { es: 'no tiene ninguna impresora registrada', en: 'has no registered printer' },
      'seal-code': { es: 'el código de precinto de seguridad (AJ)', en: 'the security seal code' },
      'type-approval': { es: 'el número de homologación', en: 'the type-approval number' },
      'issuing-authorisation': {
        es: 'la autorización de la Consejería del sistema de emisión en sala',
        en: "the Consejería's authorisation of the in-hall issuing system",
      },
      'printer-not-active': { es: 'está suspendida', en: 'is suspended' },
    } as const
    const missing = d.missing as string[]
    const device = typeof d.deviceName === 'string' ? d.deviceName : null
    const who =
      lang === 'es' ? (device ? `El equipo «${device}»` : 'Este equipo') : device ? `Device "${device}"` : 'This device'
    if (missing.includes('no-printer'))
      return lang === 'es'
        ? `${who} no puede vender ni pagar: su impresora de tickets no está registrada. Pida al director que la registre (equipos, tipo impresora).`
        : `${who} cannot sell or pay: its ticket printer is not registered. Ask the director to register it (devices, kind printer).`
    const lacks = missing
      .filter((m) => m !== 'printer-not-active' && m in words)
      .map((m) => words[m as keyof typeof words][lang])
      .join(lang === 'es' ? ' y ' : ' and ')
    if (lacks && Array.isArray(d.demo) && d.demo.length)
      return lang === 'es'
        ? `${who} no puede vender ni pagar: a su impresora le falta ${lacks}; la referencia registrada es de la demostración (DEMO) y en un servidor sin demostración no vale. Pida al director que registre la real en la ficha de la impresora.`
        : `${who} cannot sell or pay: its printer lacks ${lacks}; the reference on record is a demo one (DEMO), which counts for nothing on a server without the demo. Ask the director to record the real one on the printer.`
    if (lacks)
      return lang === 'es'
        ? `${who} no puede vender ni pagar: a su impresora le falta ${lacks}. Pida al director que lo registre en la ficha de la impresora.`
        : `${who} cannot sell or pay: its printer lacks ${lacks}. Ask the director to record it on the printer.`
    if (missing.includes('printer-not-active'))
      return lang === 'es'
        ? `${who} no puede vender ni pagar: su impresora está suspendida.`
        : `${who} cannot sell or pay: its printer is suspended.`
  }
  if (code === 'SOFTWARE_NOT_CERTIFIED' && typeof d.component === 'string') {
    // Issue 26 (RNG-3, RNG-24, RNG-29, RNG-32): which component, so the director knows which certificate to record.
    const names = {
      'draw-engine': { es: 'el motor de sorteo por software', en: 'the software draw engine' },
      'pot-award': { es: 'el programa que adjudica los pozos', en: 'the pot award software' },
      'derived-bingo': { es: 'el sistema de bingo derivado', en: 'the derived bingo system' },
    } as const
    const name = names[d.component as keyof typeof names]?.[lang]
    // Issue 24 point 4: a demo record on a server without the demo: say that it is the demo's, not that none exists.
    if (name && typeof d.demoReference === 'string')
      return lang === 'es'
        ? `No se puede: ${name} solo tiene registrado el certificado de la demostración («${d.demoReference}»), que en un servidor sin demostración no vale. Registre el certificado real de la versión en marcha.`
        : `Not allowed: ${name} has only the demo's certificate recorded ("${d.demoReference}"), which counts for nothing on a server without the demo. Record the real certificate of the running build.`
    if (name)
      return lang === 'es'
        ? `No se puede: ${name} no tiene un certificado u homologación registrado para la versión que está en marcha en la jurisdicción de esta sala.`
        : `Not allowed: ${name} has no certificate or type approval recorded for the running build in this hall's jurisdiction.`
  }
  if (code === 'CALLING_TOO_SOON' && typeof d.waitSeconds === 'number') {
    // CFG-20: the seconds still to wait, from the refusal itself (the screen keeps no copy of the hall's times).
    const wait = d.waitSeconds
    const es = plural(wait, 'segundo', 'segundos')
    const en = plural(wait, 'second', 'seconds')
    if (d.step === 'ball')
      return lang === 'es'
        ? `Demasiado pronto para la siguiente bola: el ritmo de la sala deja al menos ${plural(Number(d.minSeconds), 'segundo', 'segundos')} entre bolas para que todos marquen. Espere ${es}.`
        : `Too soon for the next ball: the hall's rhythm leaves at least ${plural(Number(d.minSeconds), 'second', 'seconds')} between balls so that everyone can mark. Wait ${en}.`
    if (d.step === 'window')
      return lang === 'es'
        ? `Aún no puede cerrarse la jugada: después de «¿alguna línea/bingo más?» la sala espera al menos ${plural(Number(d.minSeconds), 'segundo', 'segundos')}. Espere ${es}.`
        : `The play cannot be closed yet: after "any more line/bingo?" the hall waits at least ${plural(Number(d.minSeconds), 'second', 'seconds')}. Wait ${en}.`
    if (d.step === 'suspension')
      return lang === 'es'
        ? `La partida suspendida aún no puede darse por no resuelta ni devolverse: la sala espera al menos ${plural(Math.round(Number(d.minSeconds) / 60), 'minuto', 'minutos')}. Espere ${es}.`
        : `The suspended game cannot be refunded as unresolved yet: the hall waits at least ${plural(Math.round(Number(d.minSeconds) / 60), 'minute', 'minutes')}. Wait ${en}.`
  }
  if (code === 'DENOMINATION_UNKNOWN' && typeof d.denomination === 'string') {
    // CFG-2: the value refused and the notes and coins the hall's currency has, in its own writing.
    const cur = typeof d.currency === 'string' ? d.currency : ''
    const sym = cur === 'BOB' ? 'Bs' : cur === 'EUR' ? '€' : cur
    const fmt = (c: number) => {
      const whole = c % 100 === 0 ? String(c / 100) : (c / 100).toFixed(2).replace('.', lang === 'es' ? ',' : '.')
      return cur === 'EUR' ? `${whole} €` : `${sym} ${whole}`
    }
    const list = (k: string) => (Array.isArray(d[k]) ? (d[k] as number[]).map(fmt).join(', ') : '')
    const value = Number(d.denomination)
    const shown = Number.isSafeInteger(value) && value > 0 ? fmt(value) : d.denomination
    return lang === 'es'
      ? `${shown} no es un billete ni una moneda de la sala. Billetes: ${list('notesCents')}. Monedas: ${list('coinsCents')}.`
      : `${shown} is not a note or coin of the hall. Notes: ${list('notesCents')}. Coins: ${list('coinsCents')}.`
  }
  if (code === 'BET_OUT_OF_LIMITS') {
    const n = (k: string) => (typeof d[k] === 'number' ? (d[k] as number) : null)
    const min = n('minCardsPerPurchase')
    const max = n('maxCardsPerPurchase')
    const perPlayer = n('maxCardsPerPlayer')
    const held = n('heldBefore')
    const left = n('left')
    // CFG-7: whose limit it is: the hall's, the game's, or the game's in this channel.
    const channelEs: Record<string, string> = {
      counter: 'en caja',
      table: 'en la mesa',
      kiosk: 'en el quiosco',
      terminal: 'en los terminales',
    }
    const channelEn: Record<string, string> = {
      counter: 'at the counter',
      table: 'at the table',
      kiosk: 'at the kiosk',
      terminal: 'at the terminals',
    }
    const ch = typeof d.channel === 'string' ? d.channel : ''
    const whoseEs =
      d.scope === 'channel'
        ? `de esta partida ${channelEs[ch] ?? ''}`
        : d.scope === 'game'
          ? 'de esta partida'
          : 'de la sala'
    const whoseEn =
      d.scope === 'channel'
        ? `of this game ${channelEn[ch] ?? ''}`
        : d.scope === 'game'
          ? 'of this game'
          : 'of the hall'
    const leftEs =
      left === null
        ? ''
        : left === 0
          ? ' No le quedan cartones por comprar en esta partida.'
          : ` Puede comprar hasta ${plural(left, 'cartón', 'cartones')} más.`
    const leftEn =
      left === null
        ? ''
        : left === 0
          ? ' No cards are left to buy in this game.'
          : ` Up to ${plural(left, 'card', 'cards')} more can be bought.`
    if (d.limit === 'min-per-purchase' && min !== null)
      return lang === 'es'
        ? `La compra mínima ${whoseEs} es de ${plural(min, 'cartón', 'cartones')}: compre al menos ${min}.`
        : `The minimum purchase ${whoseEn} is ${plural(min, 'card', 'cards')}: buy at least ${min}.`
    if (d.limit === 'max-per-purchase' && max !== null)
      return lang === 'es'
        ? `Se pueden comprar como máximo ${plural(max, 'cartón', 'cartones')} por compra${d.scope === 'hall' ? '' : ` ${whoseEs}`}: compre ${max} o menos y, si quiere más, haga otra compra.${held !== null ? leftEs : ''}`
        : `At most ${plural(max, 'card', 'cards')} can be bought in one purchase${d.scope === 'hall' ? '' : ` ${whoseEn}`}: buy ${max} or fewer, and make another purchase for more.${held !== null ? leftEn : ''}`
    if (d.limit === 'max-per-player' && perPlayer !== null)
      return lang === 'es'
        ? `Cada jugador puede tener como máximo ${plural(perPlayer, 'cartón', 'cartones')} en la partida${d.scope === 'hall' ? '' : ` (límite ${whoseEs})`}${held !== null ? ` y ya tiene ${held}` : ''}.${leftEs}`
        : `Each player may hold at most ${plural(perPlayer, 'card', 'cards')} in the game${d.scope === 'hall' ? '' : ` (limit ${whoseEn})`}${held !== null ? ` and already holds ${held}` : ''}.${leftEn}`
  }
  return undefined
}

/** Why a particular field is refused, in both languages (sent in `details.reason`). */
export const fieldReasons = {
  // Issue 15 / DESIGN.md bolillo-draw-v2 point 2: no person supplies entropy to a draw.
  externalEntropy: {
    es: 'Ya no se aporta entropía al cerrar la venta: el sorteo usa la ronda del faro público de aleatoriedad que fija la hora de cierre (bolillo-draw-v2).',
    en: 'No entropy is supplied at the close of sales any more: the draw uses the public randomness beacon round fixed by the close time (bolillo-draw-v2).',
  },
} as const

export type Lang = 'es' | 'en'

/** Picks es or en from an Accept-Language header; Spanish is the default. */
export function pickLang(header: string | undefined | null): Lang {
  if (!header) return 'es'
  const parts = header
    .split(',')
    .map((p) => {
      const [tag, ...params] = p.trim().split(';')
      const q = params.find((x) => x.trim().startsWith('q='))
      return { tag: tag.trim().toLowerCase(), q: q ? Number(q.trim().slice(2)) || 0 : 1 }
    })
    .sort((a, b) => b.q - a.q)
  for (const { tag } of parts) {
    if (tag.startsWith('es')) return 'es'
    if (tag.startsWith('en')) return 'en'
  }
  return 'es'
}
