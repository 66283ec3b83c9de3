import { render } from 'preact'
import { App } from './App.tsx'
import { lang } from './session.ts'
import './admin.css'

// The back office: `/admin/`, Spanish unless `?lang=en` or the ES/EN switch; a person logs in with their own account.
document.documentElement.lang = lang.value
render(<App />, document.getElementById('app')!)
