import { useEffect, useState } from 'preact/hooks'
import { text, type Lang } from '../../../web/i18n.ts'
import { watchMjpeg } from '../../../web/mjpeg.ts'

/**
 * RNG-30 (004 Bingo VI.1: "en cada sala se recibirá ... las diferentes extracciones a través de imagen de vídeo
 * remitida por la Central Operativa"): the central's ball-exit camera, relayed by the server to this enrolled display
 * (its credential in the Authorization header; the display never learns the camera's address). When the image is
 * lost the screen says so plainly; the balls keep arriving as data beside it.
 */
export function CentralVideo({ gameId, device, lang }: { gameId: string; device: string | null; lang: Lang }) {
  const [src, setSrc] = useState<string | null>(null)
  const [lost, setLost] = useState(false)
  useEffect(() => {
    setSrc(null)
    setLost(false)
    const headers: Record<string, string> = { 'accept-language': lang }
    if (device) headers.authorization = `Device ${device}`
    const watch = watchMjpeg(`/api/games/${encodeURIComponent(gameId)}/central-video`, { headers }, (url) => {
      setSrc(url)
      setLost(url === null)
    })
    return () => watch.stop()
  }, [gameId, device, lang])
  const state = src ? 'live' : lost ? 'lost' : 'connecting'
  return (
    <figure class={`hd-video hd-video--${state}`} data-testid="central-video" data-state={state}>
      {src ? (
        <img class="hd-video__img" src={src} alt={text(lang, 'centralLive')} data-testid="central-video-img" />
      ) : (
        <div class="hd-video__none" data-testid="central-video-notice">
          <div class="hd-video__none-title">{text(lang, lost ? 'centralLost' : 'centralConnecting')}</div>
          {lost && <div class="hd-video__none-hint">{text(lang, 'centralLostHint')}</div>}
        </div>
      )}
      {src && (
        <figcaption class="hd-video__caption" data-testid="central-video-caption">
          <span class="hd-video__dot" aria-hidden="true" />
          {text(lang, 'centralLive')}
        </figcaption>
      )}
    </figure>
  )
}
