import { useMemo } from 'react'
import { useT } from '../i18n/useT'
import type { SourcedChunk } from '../../core/protocol'
import type { RedactionOptions } from '../../formats/share/redact'
import { previewLines } from './buildShareView'

type Props = {
  readonly chunks: readonly SourcedChunk[]
  readonly k: number
  readonly redact: RedactionOptions
}

/** The chunks just before the cursor as the link's reader will see them. Text only, never HTML. */
export function RedactionPreview({ chunks, k, redact }: Props) {
  const lines = useMemo(() => previewLines(chunks, k, redact), [chunks, k, redact])
  const t = useT()
  return (
    <section aria-label={t('share.redactionPreview')} className="flex flex-col gap-1">
      <h3 className="text-xs font-semibold">{t('share.redactionPreview.heading')}</h3>
      <pre className="max-h-40 overflow-auto rounded border border-slate-200 bg-slate-50 p-2 font-mono text-[11px] leading-4 whitespace-pre dark:border-slate-700 dark:bg-slate-950">
        {lines.length === 0 ? t('share.redactionPreview.none') : lines.join('\n')}
      </pre>
    </section>
  )
}
