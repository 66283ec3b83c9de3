import { useEffect, useState } from 'preact/hooks'
import { text, type Lang } from '../../../web/i18n.ts'
import { watchMjpeg } from '../../../web/mjpeg.ts'

/**
 * RNG-30 (004 Bingo VI.1: "en cada sala se recibirá ... las diferentes extracciones a través de imagen de vídeo
 * remitida por la Central Operativa"): the central's ball-exit camera, relayed by the server to this enrolled display
 * (its credential in the Authorization header; the display never learns the camera's address). When the image is
 * lost the screen says so plainly; the balls keep arriving as data beside it.
 */
/**
 * BNG-34 (`central` false): a game of the hall's own, shown beside the called ball with the hall's ball-exit camera
 * ("Imagen de la salida de bolas"); a display refused the image (a hall with no registered camera: 404) shows no panel
 * at all, and one whose image is lost says "Sin imagen de la cámara".
 */
export function CentralVideo({
  gameId,
  device,
  lang,
  central = true,
}: {
  gameId: string
  device: string | null
  lang: Lang
  central?: boolean
}) {
  const [src, setSrc] = useState<string | null>(null)
  const [lost, setLost] = useState(false)
  const [absent, setAbsent] = useState(false)
  useEffect(() => {
    setSrc(null)
    setLost(false)
    setAbsent(false)
    const headers: Record<string, string> = { 'accept-language': lang }
    if (device) headers.authorization = `Device ${device}`
    const watch = watchMjpeg(
      `/api/games/${encodeURIComponent(gameId)}/central-video`,
      { headers, onRefused: () => setAbsent(true) },
      (url) => {
        setSrc(url)
        setLost(url === null)
        if (url) setAbsent(false)
      },
    )
    return () => watch.stop()
  }, [gameId, device, lang])
  const state = src ? 'live' : lost ? 'lost' : 'connecting'
  // A hall's own game: nothing until there is an image or it was lost (no panel at all for a hall with no camera).
  if (!central && !src && (absent || !lost)) return null
  const live = central ? 'centralLive' : 'ballExitLive'
  const lostText = central ? 'centralLost' : 'ballExitLost'
  const connecting = central ? 'centralConnecting' : 'ballExitConnecting'
  return (
    <figure class={`hd-video hd-video--${state}`} data-testid="central-video" data-state={state}>
      {src ? (
        <img class="hd-video__img" src={src} alt={text(lang, live)} data-testid="central-video-img" />
      ) : (
        <div class="hd-video__none" data-testid="central-video-notice">
          <div class="hd-video__none-title">{text(lang, lost ? lostText : connecting)}</div>
          {lost && <div class="hd-video__none-hint">{text(lang, 'centralLostHint')}</div>}
        </div>
      )}
      {src && (
        <figcaption class="hd-video__caption" data-testid="central-video-caption">
          <span class="hd-video__dot" aria-hidden="true" />
          {text(lang, live)}
        </figcaption>
      )}
    </figure>
  )
}
