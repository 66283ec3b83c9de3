export const TEXTS = {
  es: {
    title: 'Loto', draw: (n: number) => `Sorteo N.º ${n}`, drawDate: 'Fecha del sorteo', price: 'Precio por jugada', choose: (k: number, n: number) => `Marque ${k} números del 1 al ${n}`,
    clear: 'Borrar', quick: 'Automática', addBoard: 'Añadir jugada', boards: 'Jugadas', quickBoard: 'Automática (la elige el sistema)', remove: 'Quitar',
    draws: 'Sorteos consecutivos', player: 'Datos del jugador (obligatorios)', name: 'Nombre y apellidos', document: 'Documento de identidad', total: 'Total',
    buy: 'Comprar', missing: { boards: 'Añada al menos una jugada.', pending: 'Complete o borre la jugada en curso.', player: 'Escriba su nombre y apellidos y su documento.' },
    categories: 'Premios', receipt: 'Comprobante', receiptNo: 'N.º', validFor: 'Válido para', soldAt: 'Emitido', again: 'Nueva compra', back: 'Volver',
    noDraw: 'No hay sorteos a la venta.', regulation: 'Reglamento', check: 'Compruebe sus números y datos antes de comprar (LNS-19).',
  },
  en: {
    title: 'Lotto', draw: (n: number) => `Draw no. ${n}`, drawDate: 'Draw date', price: 'Price per board', choose: (k: number, n: number) => `Mark ${k} numbers from 1 to ${n}`,
    clear: 'Clear', quick: 'Quick pick', addBoard: 'Add board', boards: 'Boards', quickBoard: 'Quick pick (chosen by the system)', remove: 'Remove',
    draws: 'Consecutive draws', player: 'Player data (required)', name: 'First and last names', document: 'Identity document', total: 'Total',
    buy: 'Buy', missing: { boards: 'Add at least one board.', pending: 'Finish or clear the board in progress.', player: 'Enter your names and identity document.' },
    categories: 'Prizes', receipt: 'Receipt', receiptNo: 'No.', validFor: 'Valid for', soldAt: 'Issued', again: 'New slip', back: 'Back',
    noDraw: 'No draw is on sale.', regulation: 'Rules', check: 'Check your numbers and data before buying (LNS-19).',
  },
} as const
