import { render } from 'preact'
import { deviceCredential } from '../../../web/device.ts'
import { createInstantApi } from './api.ts'
import { App } from './App.tsx'
import { createInstantStore } from './store.ts'
import './instant.css'

// On-screen instant tickets: `/instant/?hall=<hallId>&kiosk=kiosk-1&game=<gameNo>`, Spanish unless `?lang=en`;
// `?device=` enrols the screen (kept for later loads, as on the card kiosk).
const params = new URLSearchParams(location.search)
const lang = params.get('lang') === 'en' ? 'en' : 'es'
document.documentElement.lang = lang
const game = Number(params.get('game'))
const store = createInstantStore(createInstantApi(() => store.lang.value, { device: deviceCredential(location.search) }), {
  hallId: params.get('hall') || 'demo', kioskId: params.get('kiosk') || 'kiosk-1', gameNo: Number.isInteger(game) && game > 0 ? game : null, lang,
})
void store.load()
render(<App store={store} />, document.getElementById('app')!)
