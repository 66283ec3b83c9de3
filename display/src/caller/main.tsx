import { render } from 'preact'
import { deviceCredential } from '../../../web/credentials.ts'
import { langFromSearch } from '../../../web/i18n.ts'
import { createGameFeed } from '../../../web/socket.ts'
import { App } from './App.tsx'
import { createCallerStore } from './store.ts'

// Caller console: `/caller/?hall=demo`, Spanish unless `?lang=en`. At the table it is an enrolled cashier station
// (`&device=<credential>`, kept in the browser): a login there is bound to it and the table sells in the person's shift.
const params = new URLSearchParams(location.search)
const hallId = params.get('hall') || 'demo'
const lang = langFromSearch(location.search)
document.documentElement.lang = lang
const feed = createGameFeed({ hallId })
const store = createCallerStore(feed, hallId, lang, '', deviceCredential(location.search))
void store.loadMe().then(() => store.refreshHall())

render(<App store={store} feed={feed} lang={lang} />, document.getElementById('app')!)
