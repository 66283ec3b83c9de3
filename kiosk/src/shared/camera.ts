/**
 * Camera scanning of a ticket's QR: the browser's BarcodeDetector where it exists (Chromium on Android, ChromeOS,
 * macOS), otherwise the jsQR library on frames drawn to a canvas, so any browser with a camera can scan.
 */
import jsQR from 'jsqr'

interface DetectedBarcode {
  rawValue: string
}
interface BarcodeDetectorLike {
  detect(source: CanvasImageSource): Promise<DetectedBarcode[]>
}
type BarcodeDetectorCtor = new (options: { formats: string[] }) => BarcodeDetectorLike

/** A camera can be opened (the QR decoder is always available). */
export function hasCamera(): boolean {
  return typeof window !== 'undefined' && Boolean(navigator.mediaDevices?.getUserMedia)
}

/** Kept for callers that ask specifically about the native detector. */
export function hasBarcodeDetector(): boolean {
  return typeof window !== 'undefined' && 'BarcodeDetector' in window
}

/** One frame's decoder: the native detector, or jsQR over the frame's pixels. */
function createDecoder(video: HTMLVideoElement): () => Promise<string | null> {
  if (hasBarcodeDetector()) {
    const Detector = (window as unknown as { BarcodeDetector: BarcodeDetectorCtor }).BarcodeDetector
    const detector = new Detector({ formats: ['qr_code'] })
    return async () => (await detector.detect(video))[0]?.rawValue ?? null
  }
  const canvas = document.createElement('canvas')
  const ctx = canvas.getContext('2d', { willReadFrequently: true })
  return async () => {
    const w = video.videoWidth
    const h = video.videoHeight
    if (!ctx || !w || !h) return null
    canvas.width = w
    canvas.height = h
    ctx.drawImage(video, 0, 0, w, h)
    const { data } = ctx.getImageData(0, 0, w, h)
    return jsQR(data, w, h, { inversionAttempts: 'dontInvert' })?.data ?? null
  }
}

/** Streams the back camera into `video` and calls `onCode` with the first QR read; returns a stop function. */
export async function startCameraScan(video: HTMLVideoElement, onCode: (code: string) => void): Promise<() => void> {
  const stream = await navigator.mediaDevices.getUserMedia({ video: { facingMode: 'environment' }, audio: false })
  video.srcObject = stream
  await video.play()
  const decode = createDecoder(video)
  let stopped = false
  const stop = () => {
    stopped = true
    for (const t of stream.getTracks()) t.stop()
    video.srcObject = null
  }
  const tick = async () => {
    if (stopped) return
    try {
      const code = await decode()
      if (code) {
        stop()
        onCode(code)
        return
      }
    } catch {
      /* a frame the decoder could not read */
    }
    setTimeout(tick, 150)
  }
  void tick()
  return stop
}
