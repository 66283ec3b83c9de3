import { render } from 'preact'
import { langFromSearch } from '../../../web/i18n.ts'
import { App } from './App.tsx'
import { createInspectorStore } from './store.ts'

// Inspector's screen: `/inspector/`, Spanish unless `?lang=en`. Read only (issue 14 point 7).
const lang = langFromSearch(location.search)
document.documentElement.lang = lang
const store = createInspectorStore(lang)
void store.loadMe()

render(<App store={store} lang={lang} />, document.getElementById('app')!)
