import { effect } from '@preact/signals'
import { deviceCredential } from '../../../web/credentials.ts'
import { render } from 'preact'
import { langFromSearch } from '../../../web/i18n.ts'
import { ballCall } from '../../../web/number-words.ts'
import { createGameFeed, targetFromSearch } from '../../../web/socket.ts'
import { createSpeaker } from '../../../web/speech.ts'
import { App } from './App.tsx'

// Hall display: `/display/?hall=demo` (or `?game=<id>`), Spanish unless `?lang=en`.
const lang = langFromSearch(location.search)
const feed = createGameFeed(targetFromSearch(location.search))
// An enrolled display's credential (`?device=` once, then kept): the central's image of a simultaneous game needs it.
const device = deviceCredential(location.search)
const speaker = createSpeaker(lang)
document.documentElement.lang = lang

// Each ball received live is spoken as it appears (BNG-39); a ball loaded with the state is not repeated.
effect(() => {
  const call = feed.lastCall.value
  if (call) speaker.say(ballCall(call.ball, lang))
})

render(<App feed={feed} speaker={speaker} lang={lang} device={device} />, document.getElementById('app')!)
