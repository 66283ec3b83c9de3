import type { KioskStore } from './store.ts'
import { TEXTS } from './texts.ts'

/** CFG-5: the player declares the minimum age before anything is sold; "no" ends the visit. */
export function AgeScreen(props: { store: KioskStore }) {
  const { store } = props
  const T = TEXTS[store.lang.value]
  const age = store.offer.value?.hall.minimumAge ?? 18
  if (store.screen.value.name === 'minor') {
    return (
      <section class="k-state k-state--stop" data-testid="kiosk-minor">
        <div class="k-state__icon" aria-hidden="true">{age}+</div>
        <h1 class="k-state__title">{T.minorTitle}</h1>
        <p class="k-state__hint">{T.minorBody(age)}</p>
        <button type="button" class="btn btn--secondary btn--wide" data-testid="kiosk-back" onClick={() => store.home()}>{T.back}</button>
      </section>
    )
  }
  return (
    <section class="k-age" data-testid="kiosk-age">
      <div class="k-age__badge" aria-hidden="true">{age}+</div>
      <h1 class="k-age__title">{T.ageTitle}</h1>
      <p class="k-age__body">{T.ageBody(age)}</p>
      <button type="button" class="btn btn--primary btn--huge" data-testid="kiosk-age-yes" onClick={() => store.confirmAge(true)}>{T.ageYes(age)}</button>
      <div class="k-row">
        <button type="button" class="btn btn--secondary btn--wide" data-testid="kiosk-age-no" onClick={() => store.confirmAge(false)}>{T.ageNo}</button>
        <button type="button" class="btn btn--ghost btn--wide" data-testid="kiosk-back" onClick={() => store.home()}>{T.back}</button>
      </div>
    </section>
  )
}
