import { CameraScanner } from '../shared/CameraScanner.tsx'
import type { KioskStore } from './store.ts'
import { TEXTS } from './texts.ts'

/** Waits for a voucher: the wedge scanner is always listening (App), the camera is offered where it works. */
export function ScanScreen(props: { store: KioskStore }) {
  const { store } = props
  const T = TEXTS[store.lang.value]
  const checking = store.screen.value.name === 'checking'
  return (
    <section class="k-scan" data-testid={checking ? 'kiosk-checking' : 'kiosk-scan'}>
      <div class={checking ? 'k-scan__qr k-scan__qr--busy' : 'k-scan__qr'} aria-hidden="true">
        <svg viewBox="0 0 100 100" width="100%" height="100%">
          <g fill="currentColor">
            <rect x="6" y="6" width="30" height="30" rx="3" /><rect x="64" y="6" width="30" height="30" rx="3" /><rect x="6" y="64" width="30" height="30" rx="3" />
            <rect x="14" y="14" width="14" height="14" fill="#0b1020" /><rect x="72" y="14" width="14" height="14" fill="#0b1020" /><rect x="14" y="72" width="14" height="14" fill="#0b1020" />
            <rect x="46" y="10" width="8" height="8" /><rect x="46" y="28" width="8" height="16" /><rect x="64" y="46" width="10" height="8" /><rect x="82" y="46" width="12" height="8" />
            <rect x="46" y="54" width="8" height="12" /><rect x="64" y="64" width="12" height="12" /><rect x="82" y="72" width="12" height="22" /><rect x="46" y="78" width="24" height="8" />
          </g>
        </svg>
        <div class="k-scan__beam" />
      </div>
      <h1 class="k-scan__title">{checking ? T.checking : T.scanTitle}</h1>
      {!checking && <p class="k-scan__body">{T.scanBody}</p>}
      {!checking && <CameraScanner onCode={(code) => void store.scanned(code)} label={T.camera} stopLabel={T.cameraStop} />}
      <button type="button" class="btn btn--ghost btn--wide" data-testid="kiosk-back" onClick={() => store.home()}>{T.back}</button>
    </section>
  )
}
