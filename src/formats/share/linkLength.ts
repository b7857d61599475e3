import { LINK_LIMITS } from './shareLink'

export type LinkLengthReport = {
  readonly chars: number
  /** Each limit people hit, and whether the link fits under it. */
  readonly limits: readonly { readonly chars: number; readonly label: string; readonly fits: boolean }[]
  /** Over the browser maximum: offer the file instead. */
  readonly tooLong: boolean
  /** One line for the dialog and the CLI: "7,412 characters: fits trackers (~8,000), too long for chat (~2,000)". */
  readonly summary: string
}

/**
 * How a link's length compares with the limits people hit when pasting it (see {@link LINK_LIMITS}).
 *
 * @example
 * describeLinkLength(7412).summary // '7,412 characters: too long for chat tools (~2,000); fits many trackers and servers (~8,000)'
 */
export function describeLinkLength(chars: number): LinkLengthReport {
  const limits = LINK_LIMITS.map((limit) => ({ ...limit, fits: chars <= limit.chars }))
  const tooLong = !limits[limits.length - 1]!.fits
  const n = chars.toLocaleString('en')
  const firstFit = limits.find((limit) => limit.fits)
  const lastMiss = [...limits].reverse().find((limit) => !limit.fits)
  const approx = (c: number) => (c >= 1024 * 1024 ? `${c / (1024 * 1024)} MiB` : `~${c.toLocaleString('en')}`)
  const parts: string[] = []
  if (lastMiss !== undefined) parts.push(`too long for ${lastMiss.label} (${approx(lastMiss.chars)})`)
  if (firstFit !== undefined) parts.push(`fits ${firstFit.label} (${approx(firstFit.chars)})`)
  const summary = tooLong
    ? `${n} characters: over the browser maximum (2 MiB) even for this option; share the file instead`
    : `${n} characters: ${parts.join('; ')}`
  return { chars, limits, tooLong, summary }
}
