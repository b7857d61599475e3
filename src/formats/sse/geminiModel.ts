import { geminiModelOf } from './gemini'
import { scanGeminiSse } from './geminiSse'

/**
 * The model id the route would name for a Gemini body: the first chunk's `modelVersion` that is a non-empty string
 * (the harness names its configured model, which a body does not carry), else `unknown`. Read as the translator reads
 * it: in body order, up to the first chunk that is no JSON.
 */
export function geminiModelOfBody(body: string): string {
  let model: string | null = null
  let stop = false
  scanGeminiSse(body, (event) => {
    if (stop) return
    try {
      model = geminiModelOf(JSON.parse(event.data))
      if (model !== null) stop = true
    } catch {
      stop = true
    }
  })
  return model ?? 'unknown'
}
