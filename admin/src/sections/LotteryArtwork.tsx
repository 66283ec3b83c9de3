/**
 * CFG-39, LOT-15 (9) and (11): the AJ logo and the Máxima Autoridad Ejecutiva's signature that the print shop's
 * ticket sheet carries, uploaded here by the lottery administration (PUT /api/lottery/artwork/:kind) and previewed
 * as the server holds them (GET /api/lottery/artwork/:kind). A file that is not an image is refused before it is
 * sent; the server refuses anything that is not a real PNG, in the screen's language.
 */
import { api } from '../session.ts'
import { Feedback, Panel, useLoad, errorText, when } from '../ui.tsx'
import { useState } from 'preact/hooks'
import { lx } from './lottery-texts.ts'

type Kind = 'aj-logo' | 'mae-signature'
interface Status {
  kind: Kind
  onRecord: boolean
  bytes?: number
  uploadedAt?: string
}

/** The file's bytes as base64, the JSON body the API takes. */
function readBase64(file: File): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader()
    reader.onload = () => resolve(String(reader.result).replace(/^data:[^,]*,/, ''))
    reader.onerror = () => reject(reader.error)
    reader.readAsDataURL(file)
  })
}

function ArtworkItem(props: { status: Status; onUploaded: () => void }) {
  const { kind, onRecord } = props.status
  const [error, setError] = useState<string | null>(null)
  const [ok, setOk] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)
  const image = useLoad(
    async () => (onRecord ? (await api<{ pngBase64: string }>('GET', `/api/lottery/artwork/${kind}`)).pngBase64 : null),
    [kind, onRecord, props.status.uploadedAt],
  )
  async function upload(file: File | undefined) {
    setError(null)
    setOk(null)
    if (!file) return
    if (!file.type.startsWith('image/')) {
      setError(lx('artworkNotImage', { name: file.name }))
      return
    }
    setBusy(true)
    try {
      await api('PUT', `/api/lottery/artwork/${kind}`, { pngBase64: await readBase64(file) })
      setOk(lx('artworkUploaded'))
      props.onUploaded()
    } catch (err) {
      setError(errorText(err))
    } finally {
      setBusy(false)
    }
  }
  return (
    <div class="field wide" style={{ position: 'relative' }} data-testid={`artwork-${kind}`}>
      <span>{lx(kind === 'aj-logo' ? 'artworkAjLogo' : 'artworkMaeSignature')}</span>
      <p class="muted" data-testid={`artwork-status-${kind}`}>
        {onRecord
          ? lx('artworkOnRecord', {
              kb: Math.ceil((props.status.bytes ?? 0) / 1024),
              at: when(props.status.uploadedAt!),
            })
          : lx('artworkNone')}
      </p>
      {image.data && (
        <img
          data-testid={`artwork-preview-${kind}`}
          alt={lx(kind === 'aj-logo' ? 'artworkAjLogo' : 'artworkMaeSignature')}
          src={`data:image/png;base64,${image.data}`}
          style={{ maxHeight: '120px', maxWidth: '320px', border: '1px solid #ccc', background: '#fff' }}
        />
      )}
      <label class="file-pick">
        {lx('artworkChoose')}
        <input
          type="file"
          accept="image/png"
          disabled={busy}
          data-testid={`artwork-file-${kind}`}
          onChange={(e) => {
            const input = e.currentTarget
            void upload(input.files?.[0]).finally(() => {
              input.value = ''
            })
          }}
        />
      </label>
      <Feedback error={error} ok={ok} />
    </div>
  )
}

export function LotteryArtwork() {
  const status = useLoad(async () => (await api<{ artwork: Status[] }>('GET', '/api/lottery/artwork')).artwork)
  return (
    <Panel title={lx('artworkTitle')} testId="lottery-artwork" wide>
      <p class="muted">{lx('artworkHelp')}</p>
      {status.error && <Feedback error={status.error} ok={null} />}
      {(status.data ?? []).map((s) => (
        <ArtworkItem key={s.kind} status={s} onUploaded={status.reload} />
      ))}
    </Panel>
  )
}
