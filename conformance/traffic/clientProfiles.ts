// The headers real clients and the intermediaries before a deployment put on the wire, as they put
// them (names spelled as each sends them). None of them is one the contract lets an answer depend
// on: the contract names the method, the path, the parameters, the key, the body, the clock and the
// quota, so a request with any of these sets must be answered as the same request without them.

/** Where a set of headers comes from: a browser's fetch, an HTTP library, a command-line tool, a CDN or gateway. */
export type ProfileFamily = 'browser' | 'library' | 'cli' | 'gateway';

export interface ClientProfile {
  name: string;
  family: ProfileFamily;
  /** The headers in the order the client sends them; `accept-encoding` is filtered to what the suite can decode. */
  headers: readonly (readonly [string, string])[];
}

/** An origin a web app calling the API from a browser would have (RFC 6454): another site than the API's. */
export const appOrigin = 'https://pets-app.example';

const chromeUa = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36';
const firefoxUa = 'Mozilla/5.0 (X11; Linux x86_64; rv:127.0) Gecko/20100101 Firefox/127.0';
const safariUa = 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Safari/605.1.15';

/** The fetch metadata a browser adds to a cross-site `fetch()` (Fetch Metadata Request Headers, W3C). */
const crossSiteFetch: readonly (readonly [string, string])[] = [
  ['origin', appOrigin],
  ['referer', `${appOrigin}/pets`],
  ['sec-fetch-site', 'cross-site'],
  ['sec-fetch-mode', 'cors'],
  ['sec-fetch-dest', 'empty'],
];

export const clientProfiles: readonly ClientProfile[] = [
  {
    name: 'chrome-fetch',
    family: 'browser',
    headers: [
      ['sec-ch-ua', '"Not/A)Brand";v="8", "Chromium";v="126", "Google Chrome";v="126"'],
      ['sec-ch-ua-mobile', '?0'],
      ['sec-ch-ua-platform', '"Windows"'],
      ['user-agent', chromeUa],
      ['accept', '*/*'],
      ...crossSiteFetch,
      ['accept-encoding', 'gzip, deflate, br, zstd'],
      ['accept-language', 'en-US,en;q=0.9,de;q=0.8'],
      ['priority', 'u=1, i'],
    ],
  },
  {
    name: 'firefox-fetch',
    family: 'browser',
    headers: [
      ['User-Agent', firefoxUa],
      ['Accept', '*/*'],
      ['Accept-Language', 'fr-FR,fr;q=0.8,en-US;q=0.5,en;q=0.3'],
      ['Accept-Encoding', 'gzip, deflate, br, zstd'],
      ['Referer', `${appOrigin}/pets`],
      ['Origin', appOrigin],
      ['DNT', '1'],
      ['Sec-Fetch-Dest', 'empty'],
      ['Sec-Fetch-Mode', 'cors'],
      ['Sec-Fetch-Site', 'cross-site'],
      ['Priority', 'u=4'],
      ['TE', 'trailers'],
    ],
  },
  {
    name: 'safari-fetch',
    family: 'browser',
    headers: [
      ['Accept', 'application/json'],
      ['Origin', appOrigin],
      ['Sec-Fetch-Site', 'cross-site'],
      ['Sec-Fetch-Dest', 'empty'],
      ['Accept-Language', 'ja-JP,ja;q=0.9'],
      ['Sec-Fetch-Mode', 'cors'],
      ['User-Agent', safariUa],
      ['Referer', `${appOrigin}/`],
      ['Accept-Encoding', 'gzip, deflate, br'],
    ],
  },
  {
    name: 'axios',
    family: 'library',
    headers: [
      ['Accept', 'application/json, text/plain, */*'],
      ['User-Agent', 'axios/1.7.2'],
      ['Accept-Encoding', 'gzip, compress, deflate, br'],
    ],
  },
  {
    name: 'python-requests',
    family: 'library',
    headers: [
      ['User-Agent', 'python-requests/2.32.3'],
      ['Accept-Encoding', 'gzip, deflate'],
      ['Accept', '*/*'],
      ['Connection', 'keep-alive'],
    ],
  },
  // Go's client sends no Accept at all unless told, and asks for gzip of its own accord.
  { name: 'go-net-http', family: 'library', headers: [['User-Agent', 'Go-http-client/1.1'], ['Accept-Encoding', 'gzip']] },
  { name: 'java-httpclient', family: 'library', headers: [['User-Agent', 'Java-http-client/21.0.3']] },
  { name: 'okhttp', family: 'library', headers: [['Accept-Encoding', 'gzip'], ['User-Agent', 'okhttp/4.12.0'], ['Connection', 'Keep-Alive']] },
  { name: 'curl', family: 'cli', headers: [['User-Agent', 'curl/8.8.0'], ['Accept', '*/*']] },
  {
    name: 'httpie',
    family: 'cli',
    headers: [
      ['User-Agent', 'HTTPie/3.2.2'],
      ['Accept-Encoding', 'gzip, deflate, br'],
      ['Accept', 'application/json, */*;q=0.5'],
      ['Connection', 'keep-alive'],
    ],
  },
  { name: 'wget', family: 'cli', headers: [['User-Agent', 'Wget/1.21.4'], ['Accept', '*/*'], ['Accept-Encoding', 'identity']] },
  {
    name: 'cloudflare',
    family: 'gateway',
    headers: [
      ['cf-connecting-ip', '203.0.113.7'],
      ['cf-ipcountry', 'DE'],
      ['cf-ray', '8a1b2c3d4e5f6a7b-FRA'],
      ['cf-visitor', '{"scheme":"https"}'],
      ['x-forwarded-for', '203.0.113.7'],
      ['x-forwarded-proto', 'https'],
      ['cdn-loop', 'cloudflare'],
    ],
  },
  {
    name: 'aws-alb',
    family: 'gateway',
    headers: [
      ['X-Forwarded-For', '198.51.100.23'],
      ['X-Forwarded-Proto', 'https'],
      ['X-Forwarded-Port', '443'],
      ['X-Amzn-Trace-Id', 'Root=1-6677a1b2-0123456789abcdef01234567'],
    ],
  },
  {
    name: 'nginx-proxy',
    family: 'gateway',
    headers: [
      ['X-Real-IP', '192.0.2.44'],
      ['X-Forwarded-For', '192.0.2.44, 10.0.3.17'],
      ['X-Forwarded-Host', 'api.pets.example'],
      ['X-Forwarded-Proto', 'https'],
      ['Forwarded', 'for=192.0.2.44;proto=https;host=api.pets.example'],
      ['Via', '1.1 edge-proxy.pets.example'],
      ['X-Request-Id', '5f0c6e1a-8d4b-4c39-9a57-2b7e3f1d9c80'],
    ],
  },
  // A forward proxy on a company's network (Squid's defaults): the client's private address (RFC
  // 1918) in X-Forwarded-For, as every employee's request carries it.
  {
    name: 'squid-corporate',
    family: 'gateway',
    headers: [
      ['Via', '1.1 proxy.corp.example (squid/6.10)'],
      ['X-Forwarded-For', '10.20.30.40'],
    ],
  },
  {
    name: 'envoy-tracing',
    family: 'gateway',
    headers: [
      ['traceparent', '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01'],
      ['tracestate', 'congo=t61rcWkgMzE'],
      ['x-request-id', '0d9a4c2e-7b1f-4e8a-b6c3-51f2a9e07d14'],
      ['x-envoy-expected-rq-timeout-ms', '15000'],
      ['x-forwarded-proto', 'https'],
      ['via', '1.1 envoy'],
    ],
  },
];

export const profileFamilies: readonly ProfileFamily[] = ['browser', 'library', 'cli', 'gateway'];

/**
 * A profile's headers as the suite sends them: Accept-Encoding only with codings the suite can
 * undo (a deployment may pick any coding offered, and one the suite cannot read would look like a
 * broken body), `identity` kept; Connection left to the transport, which owns the connection; and
 * the suite's own product token after the client's in User-Agent (RFC 9110, 10.1.5: a list of
 * products), so operators still find the run in their logs.
 */
export function profileHeaders(headers: readonly (readonly [string, string])[], decodable: readonly string[], suiteProduct: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of headers) {
    const lower = name.toLowerCase();
    if (lower === 'connection') continue;
    if (lower === 'accept-encoding') {
      const codings = value.split(',').map((c) => c.trim()).filter((c) => c === 'identity' || decodable.includes(c.toLowerCase()));
      if (codings.length > 0) out[name] = codings.join(', ');
      continue;
    }
    out[name] = lower === 'user-agent' ? `${value} ${suiteProduct}` : value;
  }
  return out;
}
