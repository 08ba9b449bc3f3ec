// A scenario's floor of cost in node:http: plain `node:http` answering each request with the bytes
// the mock gave the same request (its status, headers and body, recorded by the harness), and
// nothing else: no key, no state, no validation. A request with a body is read to its end first, as
// any server that takes a body must. What it reaches against Prism is the most any node:http
// server answering those bytes can reach on this machine (docs/performance.md).
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';

const [, , port, answersFile] = process.argv;
/** `METHOD /path?query` → { status, headers, body }: the mock's answer to that request. */
const answers = new Map(Object.entries(JSON.parse(readFileSync(answersFile, 'utf8'))));
const notRecorded = JSON.stringify({ code: 'NOT_FOUND', message: 'No recorded answer for this request.', status: 404 });

const server = createServer((req, res) => {
  const answer = answers.get(`${req.method} ${req.url}`);
  const send = () => {
    if (answer) res.writeHead(answer.status, answer.headers).end(answer.body);
    else res.writeHead(404, { 'content-type': 'application/json; charset=utf-8' }).end(notRecorded);
  };
  if (req.headers['content-length'] === undefined && req.headers['transfer-encoding'] === undefined) return send();
  req.on('data', () => {});
  req.once('end', send);
});
server.keepAliveTimeout = 72_000;
server.listen(Number(port), '127.0.0.1', () => console.log(`replay serving http://127.0.0.1:${server.address().port}/v1`));
for (const signal of ['SIGINT', 'SIGTERM']) process.once(signal, () => server.close(() => process.exit(0)));
