/** A minimal Server-Sent Events reader over fetch, for black-box tests of event streams. */
export interface SseEvent {
  event: string;
  data: string;
  id?: string;
}

export interface SseStream {
  status: number;
  contentType: string | null;
  /** The body when the answer is not a stream (an error). */
  body?: any;
  events: SseEvent[];
  comments: string[];
  /** Resolves once the server has ended the stream. */
  ended: Promise<void>;
  /** Waits until `pred` holds over what has arrived (or throws after `timeoutMs`). */
  until(pred: (s: SseStream) => boolean, timeoutMs?: number): Promise<void>;
  close(): void;
}

export async function openSse(url: string, headers: Record<string, string>): Promise<SseStream> {
  const abort = new AbortController();
  const res = await fetch(url, { headers: { accept: "text/event-stream", ...headers }, signal: abort.signal });
  const s: SseStream = {
    status: res.status,
    contentType: res.headers.get("content-type"),
    events: [],
    comments: [],
    ended: Promise.resolve(),
    async until(pred, timeoutMs = 15_000) {
      const deadline = Date.now() + timeoutMs;
      while (!pred(s)) {
        if (Date.now() > deadline) throw new Error(`timed out; got ${JSON.stringify(s.events)}`);
        await new Promise((r) => setTimeout(r, 10));
      }
    },
    close: () => abort.abort(),
  };
  if (!s.contentType?.startsWith("text/event-stream")) {
    const text = await res.text();
    try {
      s.body = text ? JSON.parse(text) : undefined;
    } catch {
      s.body = text;
    }
    return s;
  }
  s.ended = (async () => {
    const reader = res.body!.getReader();
    const decoder = new TextDecoder();
    let buf = "";
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        buf += decoder.decode(value, { stream: true });
        let cut: number;
        while ((cut = buf.indexOf("\n\n")) >= 0) {
          const block = buf.slice(0, cut);
          buf = buf.slice(cut + 2);
          const ev: SseEvent = { event: "message", data: "" };
          let fields = 0;
          for (const line of block.split("\n")) {
            if (line.startsWith(":")) {
              s.comments.push(line.slice(1).trim());
              continue;
            }
            const colon = line.indexOf(": ");
            const [field, value] = colon < 0 ? [line, ""] : [line.slice(0, colon), line.slice(colon + 2)];
            if (field === "event") ev.event = value;
            else if (field === "data") ev.data += value;
            else if (field === "id") ev.id = value;
            else continue;
            fields++;
          }
          if (fields > 0 && (ev.data || ev.event !== "message")) s.events.push(ev);
        }
      }
    } catch {
      // aborted by close()
    }
  })();
  return s;
}
