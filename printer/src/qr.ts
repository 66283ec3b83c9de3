/**
 * QR matrices for the PDF and the screen preview, from the `qrcode` package. The thermal printer builds its own
 * symbol from the same payload (GS ( k, see escpos.ts); both carry the exact signed ticket code.
 */
import QRCode from 'qrcode'

/** Error correction M (15 %): survives a crease or a smudge and keeps the symbol small. */
export const QR_ERROR_CORRECTION = 'M' as const
/** Quiet zone around the symbol, in modules (ISO/IEC 18004 asks for 4). */
export const QR_QUIET_ZONE = 4

export interface QrMatrix {
  /** Modules per side, without the quiet zone. */
  size: number
  /** Dark module at row r, column c. */
  dark(r: number, c: number): boolean
}

/** The QR symbol of `payload` (byte-exact: what a scanner decodes is `payload`). */
export function qrMatrix(payload: string): QrMatrix {
  const qr = QRCode.create(payload, { errorCorrectionLevel: QR_ERROR_CORRECTION })
  const { size } = qr.modules
  return { size, dark: (r, c) => qr.modules.get(r, c) === 1 }
}

/** Dark runs of each row, merged so that a renderer draws few rectangles: [row, startColumn, length]. */
export function qrRuns(m: QrMatrix): Array<[number, number, number]> {
  const runs: Array<[number, number, number]> = []
  for (let r = 0; r < m.size; r++) {
    let c = 0
    while (c < m.size) {
      if (!m.dark(r, c)) {
        c++
        continue
      }
      const start = c
      while (c < m.size && m.dark(r, c)) c++
      runs.push([r, start, c - start])
    }
  }
  return runs
}
