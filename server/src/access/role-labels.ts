/**
 * What a role is called on screen (BNG-94, BNG-96): Spanish first, English second. Screens show these, never the
 * role code. A role missing here shows as generic staff, and role-labels.test.ts fails until it is named.
 */
export const roleLabels: Record<string, { es: string; en: string }> = {
  director: { es: 'Director de Bingo', en: 'Bingo director' },
  floor_manager: { es: 'Jefe de Mesa', en: 'Floor manager' },
  caller: { es: 'Locutor', en: 'Caller' },
  cashier: { es: 'Cajero', en: 'Cashier' },
  auditor: { es: 'Auditor (solo lectura)', en: 'Auditor (read only)' },
  // Issue 14 point 3: the other roles the regulations name.
  hall_manager: { es: 'Jefe de Sala', en: 'Hall manager' },
  table_cashier: { es: 'Jefe de Mesa-Cajero', en: 'Floor manager and cashier' },
  aml_officer: { es: 'Funcionario Responsable (UIF)', en: 'AML compliance officer' },
  lottery_operator: { es: 'Operador de lotería', en: 'Lottery operator' },
  inspector: { es: 'Inspector (solo lectura)', en: 'Inspector (read only)' },
  regulator: { es: 'Regulador (solo lectura)', en: 'Regulator (read only)' },
  kiosk: { es: 'Quiosco', en: 'Kiosk' },
  cashier_station: { es: 'Estación de caja', en: 'Cashier station' },
  display: { es: 'Pantalla de sala', en: 'Hall display' },
  // Issue 27: an electronic bingo terminal at a seat.
  terminal: { es: 'Terminal de bingo', en: 'Bingo terminal' },
  public: { es: 'Sin identificar', en: 'Not identified' },
}

const unknownRole = { es: 'Personal', en: 'Staff' }

export function roleLabel(role: string, lang: 'es' | 'en'): string {
  return (roleLabels[role] ?? unknownRole)[lang]
}
