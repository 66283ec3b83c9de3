import { render } from 'preact'
import { deviceCredential } from '../../../web/device.ts'
import { createLottoApi } from './api.ts'
import { App } from './App.tsx'
import { createLottoStore } from './store.ts'
import './lotto.css'

// Lotto slip on a touch screen: `/lotto/?draw=<drawId>&kiosk=kiosk-1` (without `draw`, the draw now on sale);
// Spanish unless `?lang=en`; `?device=` enrols the screen (kept for later loads, as on the card kiosk).
const params = new URLSearchParams(location.search)
const lang = params.get('lang') === 'en' ? 'en' : 'es'
document.documentElement.lang = lang
const store = createLottoStore(createLottoApi(() => store.lang.value, { device: deviceCredential(location.search) }), { drawId: params.get('draw'), kioskId: params.get('kiosk') || 'kiosk-1', lang })
void store.load()
render(<App store={store} />, document.getElementById('app')!)
