/**
 * Reads back an ESC/POS job for tests: the printed text lines (CP850 box characters mapped back to Unicode), the
 * QR payloads stored with GS ( k, the cuts, and the status queries, in the order the printer would meet them.
 */
const CP850_HIGH: Record<number, string> = {
  0xb3: '│',
  0xc4: '─',
  0xda: '┌',
  0xbf: '┐',
  0xc0: '└',
  0xd9: '┘',
  0xc2: '┬',
  0xc1: '┴',
  0xc3: '├',
  0xb4: '┤',
  0xc5: '┼',
  0xcd: '═',
  0xb0: '░',
  0xa0: 'á',
  0x82: 'é',
  0xa1: 'í',
  0xa2: 'ó',
  0xa3: 'ú',
  0xa4: 'ñ',
  0xa5: 'Ñ',
  0xb5: 'Á',
  0x90: 'É',
  0xd6: 'Í',
  0xe0: 'Ó',
  0xe9: 'Ú',
  0xa7: 'º',
  0xa6: 'ª',
  0xa8: '¿',
  0xad: '¡',
  0xff: ' ',
}

export interface DecodedJob {
  lines: string[]
  /** Payloads of GS ( k <pL> <pH> 1 P 0 (store QR data), exactly as sent. */
  qr: string[]
  /** Number of GS V cuts. */
  cuts: number
  /** Real-time status queries (DLE EOT n) and GS r n requests, as "DLE EOT 4", "GS r 1". */
  queries: string[]
  /** Index of each event in order: 'qr', 'cut', or 'line:<n>'. */
  events: string[]
}

export function decodeEscPos(buf: Uint8Array): DecodedJob {
  const out: DecodedJob = { lines: [], qr: [], cuts: 0, queries: [], events: [] }
  let line = ''
  const flush = () => {
    out.events.push(`line:${out.lines.length}`)
    out.lines.push(line)
    line = ''
  }
  for (let i = 0; i < buf.length; i++) {
    const b = buf[i]
    if (b === 0x1b) {
      const op = buf[i + 1]
      if (op === 0x40 || op === 0x32) {
        i += 1
        continue
      } // ESC @, ESC 2
      i += 2 // ESC t n, ESC a n, ESC ! n, ESC E n, ESC 3 n, ESC d n, ESC - n
      continue
    }
    if (b === 0x1d) {
      const op = buf[i + 1]
      if (op === 0x28 && buf[i + 2] === 0x6b) {
        const len = buf[i + 3] + buf[i + 4] * 256
        const fn = buf[i + 6]
        if (fn === 0x50) {
          out.qr.push(Buffer.from(buf.subarray(i + 8, i + 5 + len)).toString('latin1'))
          out.events.push('qr')
        }
        i += 4 + len
        continue
      }
      if (op === 0x56) {
        out.cuts++
        out.events.push('cut')
        i += 2
        continue
      }
      if (op === 0x72) {
        out.queries.push(`GS r ${buf[i + 2]}`)
        i += 2
        continue
      }
      i += 2 // GS B n, GS ! n
      continue
    }
    if (b === 0x10 && buf[i + 1] === 0x04) {
      out.queries.push(`DLE EOT ${buf[i + 2]}`)
      i += 2
      continue
    }
    if (b === 0x0a) {
      flush()
      continue
    }
    line += b < 0x80 ? String.fromCharCode(b) : (CP850_HIGH[b] ?? '?')
  }
  if (line) flush()
  return out
}

/** The numbers of each printed grid row (lines between box rules that hold │), in order. */
export function gridRows(lines: readonly string[]): number[][] {
  return lines
    .filter((l) => l.includes('│'))
    .map((l) =>
      l
        .split('│')
        .slice(1, -1)
        .map((cell) => (/\d/.test(cell) ? Number(cell.trim()) : 0)),
    )
}
