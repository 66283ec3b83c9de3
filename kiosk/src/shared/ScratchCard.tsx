import { useEffect, useRef } from 'preact/hooks'
import type { ComponentChildren } from 'preact'

/**
 * A scratch layer over its children: a silver canvas the player scratches with a finger (or the mouse), or clears
 * with an animation when `autoScratch` turns true. Once about 60 % is scratched the rest falls away and `onReveal`
 * runs once. What is under it is always rendered: the layer only hides it.
 */
export function ScratchCard(props: {
  label: string
  autoScratch: boolean
  onReveal: () => void
  children: ComponentChildren
  testId?: string
}) {
  const canvas = useRef<HTMLCanvasElement>(null)
  const done = useRef(false)

  const finish = () => {
    if (done.current) return
    done.current = true
    const c = canvas.current
    if (c) c.style.opacity = '0'
    props.onReveal()
  }

  useEffect(() => {
    const c = canvas.current!
    const rect = c.getBoundingClientRect()
    c.width = Math.max(1, Math.round(rect.width))
    c.height = Math.max(1, Math.round(rect.height))
    const g = c.getContext('2d')!
    const grad = g.createLinearGradient(0, 0, c.width, c.height)
    grad.addColorStop(0, '#b9bcc6')
    grad.addColorStop(0.5, '#e6e8ee')
    grad.addColorStop(1, '#9ea2ae')
    g.fillStyle = grad
    g.fillRect(0, 0, c.width, c.height)
    g.fillStyle = 'rgba(60, 64, 80, 0.18)'
    for (let x = -c.height; x < c.width; x += 14) {
      g.beginPath()
      g.moveTo(x, 0)
      g.lineTo(x + c.height, c.height)
      g.lineTo(x + c.height + 5, c.height)
      g.lineTo(x + 5, 0)
      g.fill()
    }
    g.fillStyle = '#4b4f61'
    g.font = `800 ${Math.round(c.height / 9)}px system-ui, sans-serif`
    g.textAlign = 'center'
    g.textBaseline = 'middle'
    g.fillText(props.label, c.width / 2, c.height / 2)
    g.globalCompositeOperation = 'destination-out'
  }, [])

  const scratchedShare = () => {
    const c = canvas.current!
    const data = c.getContext('2d')!.getImageData(0, 0, c.width, c.height).data
    let clear = 0
    let n = 0
    for (let i = 3; i < data.length; i += 4 * 37) {
      n++
      if (data[i] < 40) clear++
    }
    return n ? clear / n : 0
  }

  const scratchAt = (x: number, y: number) => {
    const c = canvas.current!
    const g = c.getContext('2d')!
    g.beginPath()
    g.arc(x, y, Math.max(18, c.width / 14), 0, Math.PI * 2)
    g.fill()
  }

  let moves = 0
  const onPointer = (e: PointerEvent) => {
    if (done.current || (e.type === 'pointermove' && e.buttons === 0 && e.pointerType === 'mouse')) return
    const r = canvas.current!.getBoundingClientRect()
    scratchAt(e.clientX - r.left, e.clientY - r.top)
    if (++moves % 8 === 0 && scratchedShare() > 0.6) finish()
  }

  useEffect(() => {
    if (!props.autoScratch || done.current) return
    const c = canvas.current!
    const g = c.getContext('2d')!
    const start = performance.now()
    const durationMs = 1100
    let frame = 0
    const step = (t: number) => {
      const k = Math.min(1, (t - start) / durationMs)
      // A zig-zag sweep, top to bottom, like a coin going back and forth.
      const rows = 7
      const y = k * c.height * 1.1
      const row = Math.floor((y / c.height) * rows)
      const x = row % 2 === 0 ? (((y / c.height) * rows) % 1) * c.width : (1 - (((y / c.height) * rows) % 1)) * c.width
      g.lineWidth = (c.height / rows) * 1.5
      g.lineCap = 'round'
      g.beginPath()
      g.moveTo(row % 2 === 0 ? 0 : c.width, Math.min(y, c.height))
      g.lineTo(x, Math.min(y, c.height))
      g.stroke()
      g.fillRect(0, 0, c.width, Math.max(0, y - c.height / rows))
      if (k < 1) frame = requestAnimationFrame(step)
      else finish()
    }
    frame = requestAnimationFrame(step)
    return () => cancelAnimationFrame(frame)
  }, [props.autoScratch])

  return (
    <div class="i-scratch" data-testid={props.testId}>
      <div class="i-scratch__under">{props.children}</div>
      <canvas ref={canvas} class="i-scratch__layer" onPointerDown={onPointer} onPointerMove={onPointer} />
    </div>
  )
}
