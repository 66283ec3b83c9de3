import { useEffect, useRef, useState } from 'preact/hooks'
import { hasCamera, startCameraScan } from './camera.ts'

/** A button that opens the camera and reads a QR (native detector or jsQR); hidden where there is no camera API. */
export function CameraScanner(props: {
  onCode: (code: string) => void
  label: string
  stopLabel: string
  /**
   * Issue 29 point 9: what the person reads when the camera cannot be opened (none, refused, busy), in the screen's
   * language, saying what to do instead; never the browser's own (English) error.
   */
  failedText: string
  class?: string
  /** The button's class, so that it looks like the screen's other buttons (the kiosk's by default). */
  buttonClass?: string
}) {
  const [open, setOpen] = useState(false)
  const [failed, setFailed] = useState<string | null>(null)
  const video = useRef<HTMLVideoElement>(null)
  useEffect(() => {
    if (!open || !video.current) return
    let stop: (() => void) | null = null
    let cancelled = false
    startCameraScan(video.current, (code) => {
      setOpen(false)
      props.onCode(code)
    })
      .then((s) => {
        if (cancelled) s()
        else stop = s
      })
      .catch(() => {
        setFailed(props.failedText)
        setOpen(false)
      })
    return () => {
      cancelled = true
      stop?.()
    }
  }, [open])
  if (!hasCamera()) return null
  return (
    <div class={props.class ?? 'camera'}>
      <button
        type="button"
        class={props.buttonClass ?? 'btn btn--secondary'}
        data-testid="camera-toggle"
        onClick={() => {
          setFailed(null)
          setOpen(!open)
        }}
      >
        {open ? props.stopLabel : props.label}
      </button>
      {open && <video ref={video} class="camera__video" muted playsInline data-testid="camera-video" />}
      {failed && (
        <p class="camera__error" role="alert" data-testid="camera-error">
          {failed}
        </p>
      )}
    </div>
  )
}
