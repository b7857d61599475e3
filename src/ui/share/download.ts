/**
 * Saves text as a file: a Blob behind a temporary `<a download>`. Nothing leaves the browser. The object URL is
 * revoked a little later (revoking at once cancels the download in some browsers).
 */
export function downloadText(text: string, fileName: string, mediaType: string): void {
  const url = URL.createObjectURL(new Blob([text], { type: mediaType }))
  const anchor = document.createElement('a')
  anchor.href = url
  anchor.download = fileName
  anchor.style.display = 'none'
  document.body.append(anchor)
  anchor.click()
  anchor.remove()
  window.setTimeout(() => URL.revokeObjectURL(url), 10_000)
}
