/**
 * Signer thread of the lotto sale path (receipts.ts): signs the codes of a block of reserved receipt numbers
 * (`BLL1.L.<receipt>.<Ed25519 signature>`) ahead of the sales that will use them, so that the ~30 µs signature
 * leaves both the HTTP thread and the SQLite writer thread. Messages `{ id, receipts: JSON string[] }` are answered
 * by `{ id, codes: JSON string[] }`.
 */
import type { KeyObject } from 'node:crypto'
import { parentPort, workerData } from 'node:worker_threads'
import { encodeTicketCode, TicketKind } from '../shared/ticket-code.ts'

const { privateKey } = workerData as { privateKey: KeyObject }
parentPort!.on('message', (m: { id: number; receipts: string }) => {
  const codes = (JSON.parse(m.receipts) as string[]).map((id) =>
    encodeTicketCode({ kind: TicketKind.lotto, id }, privateKey),
  )
  parentPort!.postMessage({ id: m.id, codes: JSON.stringify(codes) })
})
