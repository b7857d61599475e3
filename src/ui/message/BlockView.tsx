import type { ContentBlock } from '../../core/protocol'

type Props = { readonly block: ContentBlock; readonly position: number }

// Both light and dark entries: a `dark:border-*` colour would otherwise repaint the left accent too.
const ACCENT: Record<string, string> = {
  text: 'border-l-sky-500 dark:border-l-sky-400',
  reasoning: 'border-l-violet-500 dark:border-l-violet-400',
  'tool-call': 'border-l-emerald-500 dark:border-l-emerald-400',
}

/** One assembled block. Content is always rendered as text: streams are untrusted input. */
export function BlockView({ block, position }: Props) {
  const accent = ACCENT[block.type] ?? 'border-l-slate-400 dark:border-l-slate-500'
  return (
    <article
      aria-label={`Block ${position} · ${block.type}`}
      className={`rounded-md border border-l-4 border-slate-200 bg-white p-3 dark:border-slate-700 dark:bg-slate-900 ${accent}`}
    >
      <h3 className="mb-1 text-xs font-medium tracking-wide text-slate-500 uppercase dark:text-slate-400">
        Block {position} · {block.type}
      </h3>
      <BlockBody block={block} />
    </article>
  )
}

function BlockBody({ block }: { readonly block: ContentBlock }) {
  if ((block.type === 'text' || block.type === 'reasoning') && typeof block['text'] === 'string') {
    return <p className="break-words whitespace-pre-wrap">{block['text']}</p>
  }
  if (block.type === 'tool-call') {
    const { id, name, arguments: args } = block as { id?: unknown; name?: unknown; arguments?: unknown }
    return (
      <div className="space-y-1">
        <p>
          <span className="font-mono font-semibold">{String(name)}</span>{' '}
          <span className="font-mono text-xs text-slate-500 dark:text-slate-400">{String(id)}</span>
        </p>
        <pre className="font-mono text-sm break-all whitespace-pre-wrap">{String(args)}</pre>
      </div>
    )
  }
  return (
    <pre className="font-mono text-sm break-all whitespace-pre-wrap">{JSON.stringify(block, null, 2)}</pre>
  )
}
