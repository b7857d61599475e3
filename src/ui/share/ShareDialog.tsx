import { useMemo, useState } from 'react'
import { exportStream } from '../../formats/export'
import type { ShareInput } from '../../formats/share/payload'
import { isRedacting, NO_REDACTION } from '../../formats/share/redact'
import { exportTargetOf } from './shareTarget'
import { isSessionLog, WINDOW_SIZES, type ShareChoice } from './buildShareView'
import { downloadText } from './download'
import { LinkResult } from './LinkResult'
import { OptionSizes } from './OptionSizes'
import { RedactionPreview } from './RedactionPreview'
import { ShareScopeFields } from './ShareScopeFields'
import { useShareLink } from './useShareLink'
import { useT } from '../i18n/useT'

/** Streams longer than this open the dialog on the window option. */
const BIG_STREAM = 50_000

type Props = { readonly input: ShareInput; readonly onClose: () => void }

/** The Share dialog's content: what to share, how much to hide, an optional passphrase, and the link. */
export function ShareDialog({ input, onClose }: Props) {
  const t = useT()
  const isLog = useMemo(() => isSessionLog(input.source, input.sessionIndex ?? 0), [input])
  const [choice, setChoice] = useState<ShareChoice>({
    // A big stream starts on the window: the whole of it takes seconds to encode and is too long for most uses.
    scope: input.attempt.chunks.length > BIG_STREAM ? 'window' : isLog ? 'session' : 'stream',
    windowSize: WINDOW_SIZES.initial,
    redact: NO_REDACTION,
  })
  const [passphrase, setPassphrase] = useState('')
  const link = useShareLink(input, choice, passphrase)

  const downloadFile = () => {
    const target = exportTargetOf({ source: input.source, streamKey: input.streamKey })
    if (target === null) return
    const file = exportStream(target, 'dsh-jsonl')
    downloadText(file.text, file.fileName, file.mediaType)
  }

  return (
    <div className="flex flex-col gap-3 p-4 text-sm">
      <header>
        <h2 className="font-semibold">{t('share.heading')}</h2>
        <p className="text-xs text-slate-600 dark:text-slate-300">{t('share.nothingUploaded')}</p>
      </header>
      <ShareScopeFields input={input} isLog={isLog} choice={choice} onChange={setChoice} />
      {isRedacting(choice.redact) && (
        <RedactionPreview chunks={input.attempt.chunks} k={input.k} redact={choice.redact} />
      )}
      <label className="flex items-center gap-2 text-xs">
        <span className="w-28 shrink-0 font-semibold">{t('share.passphrase')}</span>
        <input
          type="password"
          aria-label={t('share.passphrase')}
          autoComplete="new-password"
          placeholder={t('share.passphraseHint')}
          className="field w-72 max-w-full"
          value={passphrase}
          onChange={(event) => setPassphrase(event.target.value)}
        />
        {passphrase !== '' && (
          <span className="text-slate-600 dark:text-slate-300">{t('share.sendSeparately')}</span>
        )}
      </label>
      <LinkResult link={link} onDownload={downloadFile} />
      <OptionSizes input={input} choice={choice} onUse={setChoice} />
      <footer className="flex items-center justify-between gap-2 border-t border-slate-200 pt-3 dark:border-slate-700">
        <button type="button" className="btn" onClick={downloadFile} title={t('share.downloadTitle')}>
          {t('share.download')}
        </button>
        <button type="button" className="btn" onClick={onClose}>
          {t('common.close')}
        </button>
      </footer>
    </div>
  )
}
