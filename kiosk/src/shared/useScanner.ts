import { useEffect, useRef } from 'preact/hooks'
import { createWedgeDetector, TICKET_CODE_SHAPE } from './wedge.ts'

/**
 * Listens to the whole page for a keyboard-wedge scan while the screen is mounted. When the burst landed in a
 * text field (the cashier's inputs), the scanned text is taken back out of it. `accept` says which bursts are whole
 * codes (signed ticket codes by default; the cashier also takes instant validation codes).
 */
export function useScanner(
  onScan: (code: string) => void,
  enabled = true,
  accept: (code: string) => boolean = (c) => TICKET_CODE_SHAPE.test(c),
): void {
  const handler = useRef(onScan)
  handler.current = onScan
  const accepts = useRef(accept)
  accepts.current = accept
  useEffect(() => {
    if (!enabled) return
    const detector = createWedgeDetector(
      (code) => {
        const el = document.activeElement
        if (el instanceof HTMLInputElement && el.value.endsWith(code)) {
          el.value = el.value.slice(0, -code.length)
          el.dispatchEvent(new Event('input', { bubbles: true }))
        }
        handler.current(code.trim())
      },
      { accept: (code) => accepts.current(code.trim()) },
    )
    const onKey = (e: KeyboardEvent) => {
      if (detector.key(e.key, e.timeStamp)) e.preventDefault()
    }
    window.addEventListener('keydown', onKey, true)
    return () => window.removeEventListener('keydown', onKey, true)
  }, [enabled])
}
