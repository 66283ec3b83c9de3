import { render } from 'preact'
import { createLottoApi } from './api.ts'
import { App } from './App.tsx'
import { createLottoStore } from './store.ts'
import './lotto.css'

// Lotto slip on a touch screen: `/lotto/?draw=<drawId>&kiosk=kiosk-1` (without `draw`, the draw now on sale);
// Spanish unless `?lang=en`.
const params = new URLSearchParams(location.search)
const lang = params.get('lang') === 'en' ? 'en' : 'es'
document.documentElement.lang = lang
const store = createLottoStore(createLottoApi(() => store.lang.value), { drawId: params.get('draw'), kioskId: params.get('kiosk') || 'kiosk-1', lang })
void store.load()
render(<App store={store} />, document.getElementById('app')!)
