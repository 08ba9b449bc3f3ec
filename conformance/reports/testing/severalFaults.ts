// A deployment that breaks several rules at once, so a report has several failed checks to show,
// and evidence full of characters that need escaping (quotes, <, &).
import { isCreate, isList, type Transform } from '../../testing/deployment.ts';

/** The checks `severalFaults` must fail. */
export const severalFaultsFail = ['status-codes', 'content-type', 'response-schema', 'rate-limit-headers'];

export const severalFaults: Transform = async (req, forward) => {
  const res = await forward(req);
  // response-schema: listed pets lose their categoryId.
  if (isList(req) && res.status === 200) return { ...res, body: res.body.replace(/"categoryId":\d+,?/g, '') };
  // status-codes: a create answered 200 instead of 201.
  if (isCreate(req) && res.status === 201) return { ...res, status: 200 };
  // content-type: an unknown pet answered with an HTML page.
  if (res.status === 404) return { ...res, headers: { ...res.headers, 'content-type': 'text/html' }, body: '<h1>Not "here" & gone</h1>' };
  // rate-limit-headers: a 401 without X-RateLimit-Limit (its WWW-Authenticate keeps realm="pets").
  if (res.status === 401) {
    const { 'x-ratelimit-limit': _dropped, ...headers } = res.headers;
    return { ...res, headers };
  }
  return res;
};
