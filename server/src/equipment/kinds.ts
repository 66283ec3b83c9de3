/** The kinds and states of the hall's equipment, shared by the registries and their store (no import loop). */
export const DeviceKind = {
  Blower: 'blower',
  BallReader: 'ball_reader',
  Rng: 'rng',
  Printer: 'printer',
  Kiosk: 'kiosk',
  Display: 'display',
  /** Issue 27: an electronic bingo terminal at a seat (BNG-101); its seal and approval as any gaming device (GEN-7). */
  Terminal: 'terminal',
} as const
export type DeviceKind = (typeof DeviceKind)[keyof typeof DeviceKind]
export const DeviceStatus = { Active: 'active', Suspended: 'suspended', Retired: 'retired' } as const
export type DeviceStatus = (typeof DeviceStatus)[keyof typeof DeviceStatus]

export interface RegisterDeviceInput {
  id: string
  kind: DeviceKind
  name: string
  hallId?: string | null
  manufacturer?: string | null
  model?: string | null
  serialNo?: string | null
  sealCode?: string | null
  certificateId?: string | null
  certificateExpiresAt?: string | null
  typeApprovalNo?: string | null
  parentId?: string | null
  firmware?: string | null
  /** Issue 26 (GEN-4, BNG-9): a printer names the enrolled kiosk, station or terminal it prints for; none: shared. */
  servesDeviceId?: string | null
  /** BNG-9: the Consejería's prior authorisation of the in-hall issuing system the printer belongs to. */
  issuingAuthorisation?: string | null
}

export type DevicePatch = Partial<Omit<RegisterDeviceInput, 'id' | 'kind'>>

export const BallSetStatus = { Active: 'active', Reserve: 'reserve', Retired: 'retired' } as const
export type BallSetStatus = (typeof BallSetStatus)[keyof typeof BallSetStatus]
