/** One exchange as it went through the proxy, unredacted: kept in memory only, never written out. */
export interface ProxyRecord {
  /** 1, 2, …: the order requests reached the proxy. */
  seq: number;
  /** When the request reached the proxy (ms since the epoch). */
  sentAt: number;
  method: string;
  /** The request target as the client sent it: path and query (`/v1/pets?limit=5`). */
  url: string;
  /** Request header names in lower case; repeated ones joined with ", ". */
  requestHeaders: Record<string, string>;
  /** Its headers were kept as the reports keep them (`cappedHeaders`), not whole: it got no answer, so nothing judges them. */
  headersCut?: boolean;
  /** The request body read as UTF-8, at most the body cap (`requestTruncated` says when cut). */
  requestBody?: string;
  requestTruncated?: boolean;
  /** The deployment's answer; absent when none came (the error says why). */
  response?: {
    status: number;
    /** Header lines as received, names in lower case, in order. */
    rawHeaders: [string, string][];
    /** The body after content decoding, at most the body cap. */
    bytes: Uint8Array;
    truncated?: boolean;
    /** Why the body stopped short, when it did. */
    incomplete?: string;
    durationMs: number;
  };
  error?: string;
  /**
   * From the request's arrival to the answer's end, on the monotonic clock (`performance.now()`),
   * unrounded: requests in flight together are told apart from ones that followed each other by
   * it, and a millisecond rounded either way would merge or split them wrongly.
   */
  span?: { from: number; to: number };
}
