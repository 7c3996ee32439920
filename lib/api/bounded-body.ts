/**
 * Reads a request body with a byte cap: refused by its declared `Content-Length` before a byte is read, then read
 * chunk by chunk and abandoned (the stream cancelled) as soon as it passes the cap, so a huge or endless body costs
 * at most `maxBytes` of memory. Answers the text (UTF-8) or `tooLarge`.
 */
export async function readBoundedText(request: Request, maxBytes: number): Promise<{ text: string } | { tooLarge: true }> {
  const declared = request.headers.get("content-length");
  if (declared !== null && /^\d+$/.test(declared.trim()) && Number(declared) > maxBytes) {
    await request.body?.cancel().catch(() => undefined);
    return { tooLarge: true };
  }
  if (!request.body) return { text: "" };
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel().catch(() => undefined);
      return { tooLarge: true };
    }
    chunks.push(value);
  }
  return { text: Buffer.concat(chunks).toString("utf8") };
}
