import { useState } from 'react'

/** The assembled message as selectable JSON text, with a Copy button. */
export function RawJson({ json }: { readonly json: string }) {
  const [copied, setCopied] = useState<'copied' | 'failed' | null>(null)
  const copy = () => {
    navigator.clipboard.writeText(json).then(
      () => setCopied('copied'),
      () => setCopied('failed'),
    )
  }
  return (
    <div className="relative">
      <div className="absolute top-1 right-1 flex items-center gap-1">
        {copied && (
          <output className="text-[11px] text-slate-500">
            {copied === 'copied' ? 'Copied' : 'Copy failed: select the text instead'}
          </output>
        )}
        <button type="button" className="btn" onClick={copy}>
          Copy
        </button>
      </div>
      <pre
        aria-label="Message JSON"
        className="overflow-auto rounded bg-slate-50 p-2 font-mono text-[12px] break-all whitespace-pre-wrap select-text dark:bg-slate-800"
      >
        {json}
      </pre>
    </div>
  )
}
