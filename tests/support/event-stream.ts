/**
 * Reads a Server-Sent Events body until `until` holds for the text read so far, or the stream ends; fails after
 * `timeoutMs` (a ceiling for a loaded machine, or the bound a test asserts). Keeps the reader's place: the next call
 * goes on from there.
 */
export async function readEvents(response: Response, until: (text: string) => boolean, timeoutMs = 30_000): Promise<string> {
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  let text = "";
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no such events within ${timeoutMs} ms; read: ${JSON.stringify(text)}`)), timeoutMs);
  });
  try {
    while (!until(text)) {
      const { value, done } = await Promise.race([reader.read(), late]);
      if (done) break;
      text += decoder.decode(value);
    }
    return text;
  } finally {
    clearTimeout(timer);
    reader.releaseLock();
  }
}
