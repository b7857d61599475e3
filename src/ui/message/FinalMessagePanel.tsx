import { Panel } from '../layout/Panel'
import { useChunkscope } from '../StoreContext'
import { BlockView } from './BlockView'

/** The message as `blocks()` assembles it, at the cursor or at the end. */
export function FinalMessagePanel() {
  const frame = useChunkscope((s) => s.frame)
  const engine = useChunkscope((s) => s.engine)
  const mode = useChunkscope((s) => s.finalMode)
  const { setFinalMode } = useChunkscope((s) => s.actions)
  const read = mode === 'end' ? engine?.result : frame
  return (
    <Panel
      title="Final message"
      className="flex-1"
      actions={
        <fieldset className="flex">
          <legend className="sr-only">Show the message</legend>
          {(['cursor', 'end'] as const).map((m) => (
            <button
              key={m}
              type="button"
              aria-pressed={mode === m}
              className="btn aria-pressed:bg-sky-100 dark:aria-pressed:bg-sky-900"
              onClick={() => setFinalMode(m)}
            >
              {m === 'cursor' ? 'at the cursor' : 'at the end'}
            </button>
          ))}
        </fieldset>
      }
    >
      {read == null ? null : (
        <div className="space-y-2 p-2">
          {read.error !== null && (
            <p role="alert" className="text-red-600 dark:text-red-400">
              {read.error}
            </p>
          )}
          {(read.blocks ?? []).map((block, position) => (
            <BlockView key={position} block={block} position={position} />
          ))}
          <p className="font-mono text-xs text-slate-600 dark:text-slate-300">
            {read.usage ? `usage in ${read.usage.inputTokens} / out ${read.usage.outputTokens}` : 'no usage'}{' '}
            · finish{' '}
            {'failure' in read.finish
              ? `${read.finish.kind} (${read.finish.failure.code})`
              : read.finish.kind}
            {read.hasFinish ? '' : ' (no finish chunk: reads as stop)'}
          </p>
        </div>
      )}
    </Panel>
  )
}
