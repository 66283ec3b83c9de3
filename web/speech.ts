/**
 * Spoken ball calls with the browser's speechSynthesis (BNG-38, BNG-39: the number is heard and seen at the same
 * time). Browsers only speak after a user gesture, so sound starts off until someone presses the sound button;
 * the choice and the voice are remembered per screen in localStorage.
 */
import { signal, type Signal } from '@preact/signals'
import { localeOf, type Lang } from './i18n.ts'

export interface Speaker {
  enabled: Signal<boolean>
  voiceUri: Signal<string>
  /** Voices for the screen's language (empty where the system has none). */
  voices: Signal<Array<{ uri: string; name: string }>>
  supported: boolean
  setEnabled(on: boolean): void
  setVoice(uri: string): void
  /** Says `phrase` now, cutting any call still being spoken (the newest ball wins). */
  say(phrase: string): void
}

const KEY_ENABLED = 'bolillo.display.sound'
const KEY_VOICE = 'bolillo.display.voice'

function stored(key: string): string | null {
  try {
    return localStorage.getItem(key)
  } catch {
    return null
  }
}
function store(key: string, value: string): void {
  try {
    localStorage.setItem(key, value)
  } catch {
    /* private mode: the choice is not remembered */
  }
}

export function createSpeaker(lang: Lang): Speaker {
  const synth: SpeechSynthesis | undefined = typeof window !== 'undefined' ? window.speechSynthesis : undefined
  const enabled = signal(stored(KEY_ENABLED) === 'on')
  const voiceUri = signal(stored(KEY_VOICE) ?? '')
  const voices = signal<Array<{ uri: string; name: string }>>([])
  const prefix = lang === 'en' ? 'en' : 'es'

  const loadVoices = () => {
    if (!synth) return
    voices.value = synth
      .getVoices()
      .filter((v) => v.lang.toLowerCase().startsWith(prefix))
      .map((v) => ({ uri: v.voiceURI, name: `${v.name} (${v.lang})` }))
  }
  if (synth) {
    loadVoices()
    synth.addEventListener?.('voiceschanged', loadVoices)
  }

  return {
    enabled,
    voiceUri,
    voices,
    supported: Boolean(synth),
    setEnabled(on) {
      enabled.value = on
      store(KEY_ENABLED, on ? 'on' : 'off')
      if (!on) synth?.cancel()
      loadVoices()
    },
    setVoice(uri) {
      voiceUri.value = uri
      store(KEY_VOICE, uri)
    },
    say(phrase) {
      if (!synth || !enabled.value) return
      const u = new SpeechSynthesisUtterance(phrase)
      u.lang = localeOf(lang)
      u.rate = 0.9
      const voice = synth.getVoices().find((v) => v.voiceURI === voiceUri.value)
      if (voice) u.voice = voice
      synth.cancel()
      synth.speak(u)
    },
  }
}
