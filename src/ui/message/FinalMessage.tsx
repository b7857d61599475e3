import type { FinishReason, TokenUsage } from '../../core/protocol'
import { BlockView } from './BlockView'
import type { FinalMessage as FinalMessageData } from './buildFinalMessage'

type Props = { readonly message: FinalMessageData }

/** The assistant message the stream assembles to, with its usage and finish reason. */
export function FinalMessage({ message }: Props) {
  return (
    // A <section> with an accessible name has the implicit role "region".
    <section
      aria-label="Final message"
      className="rounded-lg border border-slate-200 bg-slate-50 p-4 dark:border-slate-700 dark:bg-slate-950"
    >
      <h2 className="mb-3 text-sm font-semibold tracking-wide text-slate-600 uppercase dark:text-slate-300">
        Final message
      </h2>
      {message.error !== null && (
        <p role="alert" className="mb-3 text-red-600 dark:text-red-400">
          {message.error}
        </p>
      )}
      <div className="space-y-3">
        {message.blocks.map((block, position) => (
          <BlockView key={position} block={block} position={position} />
        ))}
      </div>
      <p className="mt-3 font-mono text-sm text-slate-600 dark:text-slate-300">
        <span>{describeUsage(message.usage)}</span>
        {' · '}
        <span>
          finish {describeFinish(message.finish)}
          {message.hasFinish ? '' : ' (no finish chunk)'}
        </span>
      </p>
    </section>
  )
}

function describeUsage(usage: TokenUsage | undefined): string {
  return usage ? `usage in ${usage.inputTokens} / out ${usage.outputTokens}` : 'no usage'
}

function describeFinish(finish: FinishReason): string {
  return 'failure' in finish ? `${finish.kind} (${finish.failure.code})` : finish.kind
}
