import { splitHiddenChars } from './hiddenChars'

/**
 * Untrusted text as React text with its bidirectional and zero-width characters shown as marks (never applied), in
 * its own bidi isolate so right-to-left text inside cannot reorder what stands around it.
 */
export function ShownText({ text }: { readonly text: string }) {
  const pieces = splitHiddenChars(text)
  if (pieces.length === 1 && pieces[0]!.kind === 'text') return <bdi>{text}</bdi>
  return (
    <bdi>
      {pieces.map((piece, i) =>
        piece.kind === 'text' ? (
          piece.text
        ) : (
          <span
            key={i}
            title={piece.title}
            data-hidden-char
            className="rounded-sm bg-amber-100 px-px font-mono text-[0.85em] text-amber-900 dark:bg-amber-900/60 dark:text-amber-100"
          >
            {piece.mark}
          </span>
        ),
      )}
    </bdi>
  )
}
