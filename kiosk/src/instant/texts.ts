export const TEXTS = {
  es: {
    title: 'Raspadita', price: 'Precio', buy: 'Comprar y raspar', noGame: 'No hay raspaditas en pantalla a la venta.',
    prizes: 'Premios', oneIn: (n: string) => `1 de cada ${n}`, scratchHint: 'Raspe con el dedo o pulse «Raspar todo».',
    matchHint: 'Si aparece 3 veces el mismo importe, gana ese importe.', beatHint: 'Si TU número es mayor que SU número, gana el premio de la fila.',
    scratchAll: 'Raspar todo', won: (a: string) => `¡Ganaste ${a}!`, lost: 'Esta vez no hubo premio', ticket: 'Su boleto impreso',
    printed: 'Boleto impreso: cobre el premio en caja con este código.', notPrinted: 'No se pudo imprimir: pida ayuda al personal.',
    again: 'Otra raspadita', back: 'Volver', problem: 'No se pudo completar la compra', you: 'TU N.º', them: 'SU N.º', prize: 'PREMIO',
    serial: 'Boleto', code: 'Código',
    ruleDisabled: 'Esta sala no está autorizada para vender raspaditas en pantalla (INS-15).',
  },
  en: {
    title: 'Scratch ticket', price: 'Price', buy: 'Buy and scratch', noGame: 'No on-screen instant game on sale.',
    prizes: 'Prizes', oneIn: (n: string) => `1 in ${n}`, scratchHint: 'Scratch with your finger or press “Scratch all”.',
    matchHint: 'Three equal amounts win that amount.', beatHint: 'If YOUR number beats THEIR number, you win that row\'s prize.',
    scratchAll: 'Scratch all', won: (a: string) => `You won ${a}!`, lost: 'No prize this time', ticket: 'Your printed ticket',
    printed: 'Ticket printed: collect the prize at the cashier with this code.', notPrinted: 'Could not print: please ask staff.',
    again: 'Another ticket', back: 'Back', problem: 'The purchase could not be completed', you: 'YOURS', them: 'THEIRS', prize: 'PRIZE',
    serial: 'Ticket', code: 'Code',
    ruleDisabled: 'This hall is not authorised to sell on-screen instant tickets (INS-15).',
  },
} as const
