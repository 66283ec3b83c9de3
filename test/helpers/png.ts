/** Test images: a solid-colour PNG made in the test, and the pixels of a page rendered by pdftoppm (PPM). */
import { execFileSync } from 'node:child_process'
import { readFileSync, writeFileSync } from 'node:fs'
import { deflateSync } from 'node:zlib'

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1
  return c >>> 0
})
function crc32(b: Buffer): number {
  let c = 0xffffffff
  for (const x of b) c = CRC_TABLE[(c ^ x) & 0xff] ^ (c >>> 8)
  return (c ^ 0xffffffff) >>> 0
}
function chunk(type: string, data: Buffer): Buffer {
  const len = Buffer.alloc(4)
  len.writeUInt32BE(data.length)
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data])
  const crc = Buffer.alloc(4)
  crc.writeUInt32BE(crc32(body))
  return Buffer.concat([len, body, crc])
}

/** An RGB PNG of width x height in one colour. */
export function solidPng(width: number, height: number, [r, g, b]: readonly [number, number, number]): Buffer {
  const ihdr = Buffer.alloc(13)
  ihdr.writeUInt32BE(width, 0)
  ihdr.writeUInt32BE(height, 4)
  ihdr.set([8, 2, 0, 0, 0], 8)
  const row = Buffer.concat([Buffer.from([0]), Buffer.alloc(width * 3).map((_, i) => [r, g, b][i % 3])])
  const raw = Buffer.concat(Array.from({ length: height }, () => row))
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(raw)),
    chunk('IEND', Buffer.alloc(0)),
  ])
}

export interface Raster {
  width: number
  height: number
  /** RGB at (x, y), y down from the top of the page. */
  at(x: number, y: number): [number, number, number]
}

/**
 * The first page of a PDF at 72 dpi (one pixel per point), via pdftoppm; also written as `<base>.png` for a person
 * to look at.
 */
export function rasterPage(pdfFile: string, base: string): Raster {
  execFileSync('pdftoppm', ['-r', '72', '-f', '1', '-l', '1', '-singlefile', pdfFile, base])
  execFileSync('pdftoppm', ['-r', '72', '-f', '1', '-l', '1', '-singlefile', '-png', pdfFile, base])
  const ppm = readFileSync(`${base}.ppm`)
  // P6 header: magic, width, height, maxval, each followed by one white-space byte.
  const header = ppm.subarray(0, 40).toString('latin1').split(/\s+/)
  const [width, height, maxval] = [Number(header[1]), Number(header[2]), header[3]]
  const offset = ['P6', String(width), String(height), maxval].join(' ').length + 1
  return {
    width,
    height,
    at: (x, y) => {
      const i = offset + (y * width + x) * 3
      return [ppm[i], ppm[i + 1], ppm[i + 2]]
    },
  }
}

/** How many pixels in the box [x0, x1) x [y0, y1) satisfy the test. */
export function countPixels(
  r: Raster,
  box: { x0: number; y0: number; x1: number; y1: number },
  test: (rgb: [number, number, number]) => boolean,
): number {
  let n = 0
  for (let y = box.y0; y < box.y1; y++) for (let x = box.x0; x < box.x1; x++) if (test(r.at(x, y))) n++
  return n
}

export const writeBytes = (file: string, bytes: Uint8Array) => writeFileSync(file, bytes)
