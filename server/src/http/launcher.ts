/**
 * Issue 17: the page at `/`. It names every screen and who it is for, Spanish first (`?lang=en` for English), and
 * in the demo opens the kiosk, the cashier and the hall display already enrolled as the demo's devices (their
 * credential link), so a visitor sees every product line without typing anything. Outside the demo, and whenever
 * the server listens beyond this machine, it lists the screens only: a device is enrolled by staff, never from here.
 */
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import type { App } from './context.ts'
import type { Services } from '../services.ts'
import { zoneLabel } from '../shared/time-zone.ts'
import { isLoopbackHost } from '../config.ts'

type Lang = 'es' | 'en'

interface DemoCredentials {
  password: string
  users: string[]
  devices: Array<{ kind: string; name: string; credential: string }>
}

/** The demo's enrolled devices and staff, when this data directory holds the demo's (written by demo.ts). */
function demoCredentials(services: Services): DemoCredentials | null {
  if (!services.config.seedDemo) return null
  // Issue 24 point 4: a device credential is a bearer secret; a page anyone on the network can open shows none.
  if (!isLoopbackHost(services.config.host)) return null
  const file = join(services.config.dataDir, 'demo-credentials.json')
  if (!existsSync(file)) return null
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as DemoCredentials
  } catch {
    return null
  }
}

const TEXT = {
  es: {
    title: 'Bolillo: pantallas de la sala',
    lead: 'Elija la pantalla que va a usar. Cada una dice para quién es.',
    demo: 'Demostración',
    demoNote:
      'Sala de demostración: el quiosco, la caja y la pantalla de sala se abren ya dados de alta como dispositivos de la demo.',
    staff: 'Personal de la demo',
    password: 'Contraseña',
    hall: 'Sala',
    zone: 'Hora de la sala',
    open: 'Abrir',
    other: 'English',
    enrolled: 'dado de alta',
    login: 'inicio de sesión personal',
    none: 'Sin sala: cree una sala o arranque con la demo.',
    groups: { players: 'Para el público', staff: 'Para el personal', office: 'Oficina y control' },
    screens: {
      kiosk: ['Quiosco de venta', 'Jugadores: compran cartones de bingo, boletos de lotto y raspaditas con un vale.'],
      terminal: ['Terminal de bingo 1', 'Jugadores: bingo electrónico en su puesto, con el saldo de un vale.'],
      terminal2: ['Terminal de bingo 2', 'Jugadores: bingo electrónico en su puesto (con cartones ya comprados).'],
      lotto: ['Lotto', 'Jugadores: eligen sus números del sorteo de lotto en venta y reciben el comprobante.'],
      instant: ['Raspadita en pantalla', 'Jugadores: compran y raspan una lotería instantánea en la pantalla.'],
      display: ['Pantalla de sala', 'El público de la sala: bola actual, tablero, premios, ganadores e incidencias.'],
      cashier: ['Caja', 'Cajeros: leen el código de un cartón, boleto o billete, pagan premios y venden en mostrador.'],
      caller: [
        'Consola del locutor',
        'Locutor y jefe de mesa: abren la sesión, venden, extraen bolas, verifican y registran incidencias.',
      ],
      admin: ['Administración', 'Dirección, operador de loterías, oficial de cumplimiento e inspector.'],
      inspector: [
        'Inspección',
        'Inspector (solo lectura): diario verificado, puntos de control, actas, pruebas de sorteo y registros de premios.',
      ],
      health: ['Estado del servidor', 'Técnicos: motor de base de datos y versión.'],
    },
  },
  en: {
    title: "Bolillo: the hall's screens",
    lead: 'Choose the screen you are going to use. Each one says whom it is for.',
    demo: 'Demo',
    demoNote: "Demo hall: the kiosk, the cashier and the hall display open already enrolled as the demo's devices.",
    staff: 'Demo staff',
    password: 'Password',
    hall: 'Hall',
    zone: 'Hall time',
    open: 'Open',
    other: 'Español',
    enrolled: 'enrolled',
    login: 'staff log-in',
    none: 'No hall yet: create one or start with the demo.',
    groups: { players: 'For the public', staff: 'For staff', office: 'Office and oversight' },
    screens: {
      kiosk: ['Sales kiosk', 'Players: buy bingo cards, lotto slips and scratch tickets with a voucher.'],
      terminal: ['Bingo terminal 1', "Players: electronic bingo at their seat, from a voucher's balance."],
      terminal2: ['Bingo terminal 2', 'Players: electronic bingo at their seat (cards already bought).'],
      lotto: ['Lotto', 'Players: pick their numbers for the lotto draw on sale and get the receipt.'],
      instant: ['On-screen scratch ticket', 'Players: buy and scratch an instant lottery ticket on screen.'],
      display: ['Hall display', "The hall's public: current ball, board, prizes, winners and incidents."],
      cashier: ['Cashier', 'Cashiers: scan a card, slip or ticket, pay prizes, sell over the counter.'],
      caller: [
        'Caller console',
        'Caller and floor manager: open the session, sell, draw balls, verify and record incidents.',
      ],
      admin: ['Back office', 'Director, lottery operator, compliance officer and inspector.'],
      inspector: [
        'Inspection',
        'Inspector (read only): verified journal, checkpoints, minutes, draw proofs and prize registers.',
      ],
      health: ['Server status', 'Technicians: database engine and version.'],
    },
  },
} as const

const esc = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!)

/** Mounts `/`. `distDir` tells which screens are built (the back office only when it is). */
export function mountLauncher(app: App, services: Services, distDir: string): void {
  app.get('/', async (c) => {
    const lang: Lang = c.req.query('lang') === 'en' ? 'en' : 'es'
    const T = TEXT[lang]
    const halls = await services.bingo.listHalls()
    const hall = halls.find((h) => h.id === c.req.query('hall')) ?? halls[0] ?? null
    const demo = demoCredentials(services)
    const cred = (kind: string) => demo?.devices.find((d) => d.kind === kind)?.credential ?? null
    const link = (path: string, params: Record<string, string | null>) => {
      const q = new URLSearchParams()
      for (const [k, v] of Object.entries(params)) if (v) q.set(k, v)
      if (lang === 'en') q.set('lang', 'en')
      const s = q.toString()
      return s ? `${path}?${s}` : path
    }
    const h = hall?.id ?? null
    const terminals = (demo?.devices.filter((d) => d.kind === 'terminal') ?? []).slice(0, 2).map((d) => d.credential)
    type Item = { id: keyof typeof T.screens; href: string; enrolled: boolean; login?: boolean }
    const groups: Array<[string, Item[]]> = [
      [
        T.groups.players,
        [
          { id: 'kiosk', href: link('/kiosk/', { hall: h, device: cred('kiosk') }), enrolled: !!cred('kiosk') },
          // Issue 13 point 1: lotto slips and scratch tickets are sold by the one kiosk, in their own section.
          {
            id: 'lotto',
            href: link('/kiosk/', { hall: h, device: cred('kiosk'), section: 'boletos' }),
            enrolled: !!cred('kiosk'),
          },
          {
            id: 'instant',
            href: link('/kiosk/', { hall: h, device: cred('kiosk'), section: 'raspaditas' }),
            enrolled: !!cred('kiosk'),
          },
          { id: 'display', href: link('/display/', { hall: h, device: cred('display') }), enrolled: !!cred('display') },
          // Issue 27: the hall's electronic bingo terminals (each its own enrolled device).
          ...terminals.map((credential, i) => ({
            id: (i === 0 ? 'terminal' : 'terminal2') as 'terminal' | 'terminal2',
            href: link('/terminal/', { hall: h, device: credential }),
            enrolled: true,
          })),
        ],
      ],
      [
        T.groups.staff,
        [
          {
            id: 'cashier',
            href: link('/cashier/', { hall: h, device: cred('cashier_station') }),
            enrolled: !!cred('cashier_station'),
          },
          { id: 'caller', href: link('/caller/', { hall: h }), enrolled: false, login: true },
        ],
      ],
      [
        T.groups.office,
        [
          ...(existsSync(join(distDir, 'admin', 'index.html'))
            ? [{ id: 'admin' as const, href: link('/admin/', {}), enrolled: false, login: true }]
            : []),
          { id: 'inspector', href: link('/inspector/', {}), enrolled: false, login: true },
          { id: 'health', href: '/api/health', enrolled: false },
        ],
      ],
    ]
    const card = (i: Item) => `<li><a class="card" href="${esc(i.href)}" data-testid="launch-${i.id}">
<span class="name">${esc(T.screens[i.id][0])}</span><span class="who">${esc(T.screens[i.id][1])}</span>
${i.enrolled ? `<span class="tag ok">${esc(T.enrolled)}</span>` : i.login ? `<span class="tag">${esc(T.login)}</span>` : ''}</a></li>`
    const hallLine = hall
      ? `<p class="hall" data-testid="launch-hall">${esc(T.hall)}: <strong>${esc(hall.name)}</strong> · ${esc(T.zone)}: <strong>${esc(zoneLabel(services.clock.now().getTime(), hall.timeZone))}</strong></p>`
      : `<p class="hall">${esc(T.none)}</p>`
    const demoBlock = demo
      ? `<section class="demo" data-testid="launch-demo"><h2>${esc(T.demo)}</h2><p>${esc(T.demoNote)}</p>
<p>${esc(T.staff)}: ${demo.users.map((u) => `<code>${esc(u)}</code>`).join(', ')} · ${esc(T.password)}: <code>${esc(demo.password)}</code></p></section>`
      : ''
    return c.html(`<!doctype html><html lang="${lang}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${esc(T.title)}</title><style>
*{box-sizing:border-box}body{margin:0;font:18px/1.45 system-ui,sans-serif;background:#0b1020;color:#eef1f8}
main{max-width:1180px;margin:0 auto;padding:2rem 1.5rem 3rem}header{display:flex;justify-content:space-between;align-items:baseline;gap:1rem;flex-wrap:wrap}
h1{font-size:2.2rem;margin:0 0 .25rem;color:#ffd54a}h2{font-size:1.15rem;margin:1.8rem 0 .7rem;color:#9fb3d9;text-transform:uppercase;letter-spacing:.06em}
.lead{margin:.2rem 0 0;color:#c9d2e6}.hall{margin:.6rem 0 0;color:#c9d2e6}.lang{color:#ffd54a}
ul{list-style:none;margin:0;padding:0;display:grid;grid-template-columns:repeat(auto-fill,minmax(260px,1fr));gap:1rem}
.card{display:flex;flex-direction:column;gap:.35rem;height:100%;padding:1.1rem 1.2rem;border-radius:14px;background:#17203a;border:1px solid #2a3760;color:inherit;text-decoration:none}
.card:hover,.card:focus{border-color:#ffd54a;outline:none;background:#1d2848}.name{font-size:1.3rem;font-weight:700;color:#fff}.who{color:#b9c4dc;font-size:.95rem}
.tag{align-self:flex-start;margin-top:auto;font-size:.8rem;padding:.15rem .55rem;border-radius:99px;background:#2a3760;color:#c9d2e6}.tag.ok{background:#1f5c3a;color:#d6ffe6}
.demo{margin-top:2rem;padding:1rem 1.2rem;border-radius:14px;background:#2a2410;border:1px solid #6b5a16}.demo h2{margin:0 0 .4rem;color:#ffd54a}.demo p{margin:.3rem 0}
code{background:#0b1020;padding:.05rem .35rem;border-radius:6px;color:#ffd54a}
</style></head><body><main><header><div><h1>Bolillo</h1><p class="lead">${esc(T.lead)}</p>${hallLine}</div>
<a class="lang" href="${lang === 'en' ? '/' : '/?lang=en'}" lang="${lang === 'en' ? 'es' : 'en'}">${esc(T.other)}</a></header>
${groups
  .filter(([, items]) => items.length)
  .map(([title, items]) => `<h2>${esc(title)}</h2><ul>${items.map(card).join('')}</ul>`)
  .join('\n')}
${demoBlock}</main></body></html>`)
  })
}
