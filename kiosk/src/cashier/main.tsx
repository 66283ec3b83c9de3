import { render } from 'preact'
import { deviceCredential } from '../../../web/device.ts'
import { createCashdeskApi, type Lang } from '../shared/api.ts'
import { App } from './App.tsx'
import { createCashierStore } from './store.ts'
import './cashier.css'

// Cashier station: `/cashier/?hall=demo&station=caja-1`, Spanish unless `?lang=en`; `?device=` enrols the station.
const params = new URLSearchParams(location.search)
const lang: Lang = params.get('lang') === 'en' ? 'en' : 'es'
document.documentElement.lang = lang
const hallId = params.get('hall') || 'demo'
const api = createCashdeskApi(() => store.lang.value, { device: deviceCredential(location.search) })
const store = createCashierStore(api, { hallId, stationId: params.get('station') || 'caja-1', lang, currency: 'BOB' })
void api.offer(hallId).then((o) => { store.currency.value = o.hall.currency; store.hallName.value = o.hall.name }).catch(() => undefined)
void store.refreshDay()

render(<App store={store} />, document.getElementById('app')!)
