import { useMemo } from 'react'
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
  return (
    <section aria-label="Redaction preview" className="flex flex-col gap-1">
      <h3 className="text-xs font-semibold">Preview: what the link&apos;s reader sees before the cursor</h3>
      <pre className="max-h-40 overflow-auto rounded border border-slate-200 bg-slate-50 p-2 font-mono text-[11px] leading-4 whitespace-pre dark:border-slate-700 dark:bg-slate-950">
        {lines.length === 0 ? '(no chunks)' : lines.join('\n')}
      </pre>
    </section>
  )
}
