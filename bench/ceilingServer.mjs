// The ceiling: what plain node:http does on this machine for the same answer the mock gives to
// GET /v1/pets?limit=20, with a bearer check and the three rate-limit headers, and nothing else.
import { createServer } from 'node:http';

const pets = JSON.stringify(Array.from({ length: 20 }, (_, i) => ({ id: i + 1, name: `Pet ${i + 1}`, categoryId: (i % 8) + 1, status: 'available' })));
const unauthorized = JSON.stringify({ code: 'UNAUTHORIZED', message: 'Missing or invalid API key.', status: 401 });
let remaining = 1_000_000;

const server = createServer((req, res) => {
  const ok = req.headers.authorization === 'Bearer demo-enterprise';
  const reset = Math.ceil(Date.now() / 60_000) * 60;
  res.writeHead(ok ? 200 : 401, {
    'content-type': 'application/json; charset=utf-8',
    'x-ratelimit-limit': '1000000',
    'x-ratelimit-remaining': String(ok ? --remaining : 59),
    'x-ratelimit-reset': String(reset),
  });
  res.end(ok ? pets : unauthorized);
});
server.keepAliveTimeout = 72_000;
server.listen(Number(process.env.PORT ?? process.argv[2] ?? 4020), '127.0.0.1', () => console.log(`ceiling serving http://127.0.0.1:${server.address().port}/v1`));
for (const signal of ['SIGINT', 'SIGTERM']) process.once(signal, () => server.close(() => process.exit(0)));
