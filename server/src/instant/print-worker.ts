/**
 * Worker thread that writes an instant batch's print files (instant-files.ts) while the main thread stores the same
 * batch: both derive it from the design and the seed, and the CLI compares their placement digests at the end.
 * Booted through worker-boot.mjs (the tsx loader does not reach worker threads by itself).
 */
import { createPrivateKey } from 'node:crypto'
import { parentPort, workerData } from 'node:worker_threads'
import { checkDesign, type InstantDesign } from './design.ts'
import { encodeTicketCode, TicketKind } from '../shared/ticket-code.ts'
import { writePrintFiles } from './files.ts'

export interface PrintWorkerInput {
  outDir: string
  design: InstantDesign
  /** The batch seed, handed over in memory only. */
  seed: Uint8Array
  /** Pack range with PDF sheets, [from, to], or null. */
  sheets: [number, number] | null
  operatorKeyPem: string
  operatorKeyId: string
}

const input = workerData.input as PrintWorkerInput
const key = createPrivateKey(input.operatorKeyPem)
const result = await writePrintFiles(
  {
    outDir: input.outDir,
    checked: checkDesign(input.design),
    seed: Buffer.from(input.seed),
    sheetsFor: (p) => input.sheets !== null && p >= input.sheets[0] && p <= input.sheets[1],
    signCode: (id) => encodeTicketCode({ kind: TicketKind.instant, id }, key),
    operatorKey: key,
    operatorKeyId: input.operatorKeyId,
  },
  (done) => parentPort!.postMessage({ type: 'progress', done }),
)
parentPort!.postMessage({ type: 'done', result })
