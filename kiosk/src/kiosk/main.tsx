import { effect } from '@preact/signals'
import { render } from 'preact'
import { createGameFeed } from '../../../web/socket.ts'
import { deviceCredential } from '../../../web/credentials.ts'
import { createCashdeskApi, type Lang } from '../../../web/cashdesk-api.ts'
import { App } from './App.tsx'
import { sectionFromParam } from './basket.ts'
import { createKioskStore } from './store.ts'
import './kiosk.css'

// The one kiosk (issue 13 point 1): `/kiosk/?hall=demo&kiosk=kiosk-1`, Spanish unless `?lang=en`; `?device=` enrols the
// kiosk; `?section=cartones|boletos|raspaditas` opens that section (the /lotto/ and /instant/ screens send it).
const params = new URLSearchParams(location.search)
const lang: Lang = params.get('lang') === 'en' ? 'en' : 'es'
document.documentElement.lang = lang
const hallId = params.get('hall') || 'demo'
const store = createKioskStore(
  createCashdeskApi(() => store.lang.value, { device: deviceCredential(location.search) }),
  { hallId, kioskId: params.get('kiosk') || 'kiosk-1', lang, section: sectionFromParam(params.get('section')) },
)
// The hall feed ('hall:watch'): every change of the hall's game refreshes what the kiosk offers.
const feed = createGameFeed({ hallId })
effect(() => {
  const s = feed.state.value
  void (s ? `${s.gameId}:${s.status}:${s.cardsSold}` : null)
  void store.refreshOffer()
})
// And every 15 s, in case the feed is down: the kiosk never keeps selling a game whose sales closed.
setInterval(() => {
  if (store.screen.value.name === 'sale') void store.refreshOffer()
}, 15_000)

render(<App store={store} />, document.getElementById('app')!)
