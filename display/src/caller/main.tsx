import { render } from 'preact'
import { langFromSearch } from '../../../web/i18n.ts'
import { createGameFeed } from '../../../web/socket.ts'
import { App } from './App.tsx'
import { createCallerStore } from './store.ts'

// Caller console: `/caller/?hall=demo`, Spanish unless `?lang=en`.
const params = new URLSearchParams(location.search)
const hallId = params.get('hall') || 'demo'
const lang = langFromSearch(location.search)
document.documentElement.lang = lang
const feed = createGameFeed({ hallId })
const store = createCallerStore(feed, hallId, lang)
void store.checkLogin().then(() => store.refreshHall())

render(<App store={store} feed={feed} lang={lang} />, document.getElementById('app')!)
