import { createContext, useContext, useState, type ReactNode } from 'react'
import { useT } from '../i18n/useT'
import type { JsonNode, JsonTree } from './buildJsonTree'

/** Children shown per container before a "show more" button; keeps a huge argument object cheap to render. */
const PAGE = 100
/** Containers below this depth start folded; deeper than MAX_DEPTH is not rendered at all (pathological input). */
const OPEN_DEPTH = 2
const MAX_DEPTH = 40

const STATUS_CLASS = {
  complete: 'text-slate-600 dark:text-slate-300',
  incomplete: 'text-slate-600 dark:text-slate-300',
  invalid: 'text-red-700 dark:text-red-400',
} as const

/** The status line of a streaming JSON text: what part of it parses. */
export function JsonStatus({ tree }: { readonly tree: JsonTree }) {
  const t = useT()
  const text =
    tree.status === 'invalid'
      ? t('json.invalid', { at: tree.errorAt ?? '', error: tree.error ?? '' })
      : tree.status === 'complete'
        ? t('json.complete')
        : tree.root === null
          ? t('json.none')
          : t('json.incomplete')
  return <span className={`text-[11px] ${STATUS_CLASS[tree.status]}`}>{text}</span>
}

/** Whether the text may still grow: carets mark the parts still arriving only then (not in an invalid text). */
const Live = createContext(true)

/**
 * Tool-call arguments as a collapsible tree of what has parsed so far; strings always rendered as text. Plain
 * nested groups, not an ARIA `tree` (which promises arrow-key navigation between items): each container's fold
 * button carries `aria-expanded`, and the text reads in order.
 */
export function JsonTreeView({ tree }: { readonly tree: JsonTree }) {
  const t = useT()
  if (tree.root === null) return null
  return (
    <figure aria-label={t('json.label')} className="m-0 font-mono text-[12px] leading-snug">
      <Live value={tree.status === 'incomplete'}>
        <NodeView node={tree.root} depth={0} label={null} />
      </Live>
    </figure>
  )
}

type NodeProps = { readonly node: JsonNode; readonly depth: number; readonly label: ReactNode }

function NodeView({ node, depth, label }: NodeProps) {
  if (node.kind === 'object' || node.kind === 'array')
    return <ContainerView node={node} depth={depth} label={label} />
  return (
    <div className="break-all whitespace-pre-wrap" style={{ paddingLeft: indent(depth) }}>
      {label}
      <Scalar node={node} />
    </div>
  )
}

function Caret() {
  const t = useT()
  // Text for screen readers beside the glyph: aria-label on a <span> is not read (it has no role to name).
  return useContext(Live) ? (
    <span className="animate-pulse text-sky-700 dark:text-sky-400">
      <span aria-hidden>▌</span>
      <span className="sr-only">{t('json.arriving')}</span>
    </span>
  ) : (
    <span className="text-red-700 dark:text-red-400">
      <span aria-hidden>✕</span>
      <span className="sr-only">{t('json.unfinished')}</span>
    </span>
  )
}

function Scalar({ node }: { readonly node: Exclude<JsonNode, { kind: 'object' | 'array' }> }) {
  switch (node.kind) {
    case 'string':
      return (
        <span className="text-emerald-800 dark:text-emerald-300">
          "{node.value}
          {node.closed ? '"' : <Caret />}
        </span>
      )
    case 'number':
      return <span className="text-blue-700 dark:text-blue-300">{node.text}</span>
    case 'boolean':
    case 'null': {
      const whole = node.kind === 'null' ? 'null' : String(node.value)
      return (
        <span className="text-fuchsia-700 dark:text-fuchsia-300">
          {node.text}
          {node.text !== whole && <Caret />}
        </span>
      )
    }
  }
}

function ContainerView({
  node,
  depth,
  label,
}: NodeProps & { readonly node: Extract<JsonNode, { kind: 'object' | 'array' }> }) {
  const t = useT()
  const [open, setOpen] = useState(depth < OPEN_DEPTH)
  const [limit, setLimit] = useState(PAGE)
  const size = node.kind === 'object' ? node.entries.length : node.items.length
  const [left, right] = node.kind === 'object' ? ['{', '}'] : ['[', ']']
  const summary = t(node.kind === 'object' ? 'json.keys' : 'json.items', { count: size })
  const children: ReactNode[] = []
  if (open && depth < MAX_DEPTH) {
    const shown = Math.min(size, limit)
    for (let position = 0; position < shown; position++) {
      if (node.kind === 'array') {
        children.push(<NodeView key={position} node={node.items[position]!} depth={depth + 1} label={null} />)
        continue
      }
      const entry = node.entries[position]!
      const key = (
        <span className="text-slate-600 dark:text-slate-300">
          {JSON.stringify(entry.key).slice(0, entry.keyClosed ? undefined : -1)}
          {entry.keyClosed ? ': ' : <Caret />}
        </span>
      )
      children.push(
        entry.value === null ? (
          <div key={position} style={{ paddingLeft: indent(depth + 1) }}>
            {key}
          </div>
        ) : (
          <NodeView key={position} node={entry.value} depth={depth + 1} label={key} />
        ),
      )
    }
    if (size > shown)
      children.push(
        <div key="more" style={{ paddingLeft: indent(depth + 1) + TOGGLE }}>
          <button type="button" className="btn" onClick={() => setLimit(limit + PAGE)}>
            {t('json.more', { count: Math.min(PAGE, size - shown), left: size - shown })}
          </button>
        </div>,
      )
  }
  return (
    <div>
      <div className="whitespace-pre" style={{ paddingLeft: indent(depth) }}>
        <button
          type="button"
          aria-expanded={open}
          aria-label={t(open ? 'json.collapse' : 'json.expand')}
          className="inline-block w-3.5 text-left text-slate-600 hover:text-slate-900 dark:text-slate-300 dark:hover:text-slate-100"
          onClick={() => setOpen(!open)}
        >
          {open ? '▾' : '▸'}
        </button>
        {label}
        {left}
        {!open && <span className="text-slate-600 dark:text-slate-300"> {summary} </span>}
        {!open && (node.closed ? right : <Caret />)}
        {open && depth >= MAX_DEPTH && (
          <span className="text-slate-600 dark:text-slate-300"> {t('json.tooDeep')}</span>
        )}
      </div>
      {open && children.length > 0 && <div>{children}</div>}
      {open && <div style={{ paddingLeft: indent(depth) + TOGGLE }}>{node.closed ? right : <Caret />}</div>}
    </div>
  )
}

/** Pixels per nesting level, and the width of a container's fold button (its children align past it). */
const indent = (depth: number): number => depth * 12
const TOGGLE = 14
