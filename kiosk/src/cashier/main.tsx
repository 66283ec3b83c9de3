import { render } from 'preact'
import { deviceCredential, tabToken } from '../../../web/credentials.ts'
import { createCashdeskApi, type Lang } from '../../../web/cashdesk-api.ts'
import { App } from './App.tsx'
import { createCashierStore } from './store.ts'
import './cashier.css'

// Cashier station: `/cashier/?hall=demo&station=caja-1`, Spanish unless `?lang=en`; `?device=` enrols the station.
const params = new URLSearchParams(location.search)
const lang: Lang = params.get('lang') === 'en' ? 'en' : 'es'
document.documentElement.lang = lang
const hallId = params.get('hall') || 'demo'
// The cashier's session token lives as long as this tab (issue 13 point 5: a person logs in at the station).
const session = tabToken('cashier')
const api = createCashdeskApi(() => store.lang.value, { device: deviceCredential(location.search), token: session.get })
const store = createCashierStore(api, {
  hallId,
  stationId: params.get('station') || 'caja-1',
  lang,
  currency: 'BOB',
  session,
})
void api
  .offer(hallId)
  .then((o) => {
    store.currency.value = o.hall.currency
    store.hallName.value = o.hall.name
  })
  .catch(() => undefined)
void store.refreshShift().then(() => store.refreshDay())

render(<App store={store} />, document.getElementById('app')!)
