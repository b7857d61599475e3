/** A HAR file (browser devtools "Save all as HAR"): a JSON object whose first key is `log`. */
export function sniffHar(text: string): boolean {
  return /^\uFEFF?\s*\{\s*"log"\s*:/.test(text.slice(0, 256))
}
