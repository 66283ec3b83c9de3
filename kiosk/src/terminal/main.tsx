import { render } from 'preact'
import { createGameFeed } from '../../../web/socket.ts'
import { deviceCredential } from '../../../web/credentials.ts'
import { createRequest } from '../../../web/http.ts'
import { App } from './App.tsx'
import { createTerminalStore } from './store.ts'
import type { Lang } from './texts.ts'
import './terminal.css'

// Issue 27: `/terminal/?hall=<hall>&device=<credential>` (the credential is kept in the browser after the first load),
// Spanish unless `?lang=en`. The terminal is the enrolled device: its session and balance are found from it.
const params = new URLSearchParams(location.search)
const lang: Lang = params.get('lang') === 'en' ? 'en' : 'es'
document.documentElement.lang = lang
const hallId = params.get('hall') || 'demo'
let current: Lang = lang
const request = createRequest({ lang: () => current, device: deviceCredential(location.search) })
const feed = createGameFeed({ hallId })
const store = createTerminalStore(request, feed, lang, hallId)
store.lang.subscribe((l) => {
  current = l
  document.documentElement.lang = l
})
render(<App store={store} />, document.getElementById('app')!)
