/**
 * Camera scanning with the browser's BarcodeDetector (Chromium on Android, ChromeOS, macOS; not everywhere): the
 * screens offer the camera only when `hasBarcodeDetector()` is true and fall back to the wedge scanner otherwise.
 */
interface DetectedBarcode { rawValue: string }
interface BarcodeDetectorLike { detect(source: CanvasImageSource): Promise<DetectedBarcode[]> }
type BarcodeDetectorCtor = new (options: { formats: string[] }) => BarcodeDetectorLike

export function hasBarcodeDetector(): boolean {
  return typeof window !== 'undefined' && 'BarcodeDetector' in window && Boolean(navigator.mediaDevices?.getUserMedia)
}

/** Streams the back camera into `video` and calls `onCode` with the first QR read; returns a stop function. */
export async function startCameraScan(video: HTMLVideoElement, onCode: (code: string) => void): Promise<() => void> {
  const Detector = (window as unknown as { BarcodeDetector: BarcodeDetectorCtor }).BarcodeDetector
  const detector = new Detector({ formats: ['qr_code'] })
  const stream = await navigator.mediaDevices.getUserMedia({ video: { facingMode: 'environment' }, audio: false })
  video.srcObject = stream
  await video.play()
  let stopped = false
  const stop = () => {
    stopped = true
    for (const t of stream.getTracks()) t.stop()
    video.srcObject = null
  }
  const tick = async () => {
    if (stopped) return
    try {
      const [hit] = await detector.detect(video)
      if (hit?.rawValue) { stop(); onCode(hit.rawValue); return }
    } catch { /* a frame the detector could not read */ }
    setTimeout(tick, 150)
  }
  void tick()
  return stop
}
