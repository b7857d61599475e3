import { useState } from 'react'
import { useT } from '../i18n/useT'
import type { AssemblyRead } from '../../core/analyzeStream'
import { describeFinish, describeUsage } from './buildFinalMessage'

/** Usage (every field), finish (kind, failure code and message) and the replay state, folded. */
export function MessageMeta({
  read,
  streaming = false,
}: {
  readonly read: AssemblyRead
  /** A live capture still arriving: a missing finish is "not yet", not "reads as stop". */
  readonly streaming?: boolean
}) {
  const t = useT()
  const failed = read.hasFinish && (read.finish.kind === 'error' || read.finish.kind === 'aborted')
  return (
    <div className="space-y-0.5 font-mono text-[11px] text-slate-600 dark:text-slate-300">
      <p>
        <span>{describeUsage(read.usage, t)}</span>
        <span className="text-slate-600"> · </span>
        <span className={failed ? 'text-red-700 dark:text-red-400' : ''}>
          {describeFinish(read.finish, read.hasFinish, streaming, t)}
        </span>
      </p>
      {read.replayState !== null && <ReplayState value={read.replayState} />}
    </div>
  )
}

/** Stringified only while open: a provider's response object can be large, and the frame changes every step. */
function ReplayState({ value }: { readonly value: NonNullable<AssemblyRead['replayState']> }) {
  const [open, setOpen] = useState(false)
  const count = value.blocks?.length
  const entries = count === undefined ? 'no blocks' : `${count} block ${count === 1 ? 'entry' : 'entries'}`
  return (
    <details open={open} onToggle={(event) => setOpen(event.currentTarget.open)}>
      <summary className="cursor-pointer">replayState ({entries})</summary>
      {open && (
        <pre className="mt-0.5 max-h-48 overflow-auto rounded bg-slate-50 p-1 break-all whitespace-pre-wrap dark:bg-slate-800">
          {JSON.stringify(value, null, 2)}
        </pre>
      )}
    </details>
  )
}
