import { text, type Lang } from '../../../web/i18n.ts'
import type { Speaker } from '../../../web/speech.ts'

/** Sound on/off (a click is the user gesture browsers need before speaking) and the voice for the calls. */
export function SoundControls({ speaker, lang }: { speaker: Speaker; lang: Lang }) {
  if (!speaker.supported) return null
  const on = speaker.enabled.value
  const voices = speaker.voices.value
  return (
    <div class="hd-sound">
      <button
        type="button"
        class={on ? 'hd-sound__toggle hd-sound__toggle--on' : 'hd-sound__toggle'}
        data-testid="sound-toggle"
        aria-pressed={on}
        title={on ? text(lang, 'soundOn') : text(lang, 'soundOff')}
        onClick={() => speaker.setEnabled(!on)}
      >
        <SpeakerIcon on={on} />
      </button>
      {on && voices.length > 0 && (
        <select
          class="hd-sound__voice"
          aria-label={text(lang, 'voice')}
          data-testid="voice"
          value={speaker.voiceUri.value}
          onChange={(e) => speaker.setVoice((e.target as HTMLSelectElement).value)}
        >
          <option value="">{text(lang, 'defaultVoice')}</option>
          {voices.map((v) => (
            <option key={v.uri} value={v.uri}>
              {v.name}
            </option>
          ))}
        </select>
      )}
    </div>
  )
}

function SpeakerIcon({ on }: { on: boolean }) {
  return (
    <svg
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      stroke-width="2"
      stroke-linecap="round"
      stroke-linejoin="round"
      aria-hidden="true"
    >
      <path d="M4 9h4l5-4v14l-5-4H4z" fill="currentColor" />
      {on ? (
        <>
          <path d="M16.5 8.5a5 5 0 0 1 0 7" />
          <path d="M19.5 5.5a9 9 0 0 1 0 13" />
        </>
      ) : (
        <>
          <path d="M17 9l5 6" />
          <path d="M22 9l-5 6" />
        </>
      )}
    </svg>
  )
}
