import type { Finding } from '../../core/checks'
import { english, isMessageKey, type T } from '../i18n/translate'

/**
 * A finding's message in the language of `t`: the catalogue's `finding.<rule>` filled with the finding's values
 * (`core/checks.ts` records them beside the English message). Findings without values — read back from a share
 * link, or `recorded-mismatch`, whose wording is built from a comparison — keep their English message.
 */
export function findingText(finding: Finding, t: T = english): string {
  const key = `finding.${finding.rule}`
  return finding.params !== undefined && isMessageKey(key) ? t(key, finding.params) : finding.message
}
