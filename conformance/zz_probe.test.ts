import { it } from 'vitest';
import { inProcessDeployment } from './testing/deployment.ts';
it('probe', async () => {
  const d = await inProcessDeployment();
  const send = async (method: string, path: string, headers: Record<string, string> = {}, body?: string) => {
    const r = await d.transport.send({ method, url: `${d.baseUrl}${path}`, headers, ...(body ? { body } : {}) }, 5000);
    console.log(method, path, JSON.stringify(headers), r.status, JSON.stringify(r.headers), r.body.slice(0, 150), r.bytes.length);
  };
  const k = { authorization: 'Bearer demo-pro' };
  await send('GET', '/pets', k);
  await send('GET', '/PETS', {});
  await send('GET', '/PETS', k);
  await send('GET', '/store/orders', k);
  await send('GET', '/nope', {});
  await send('OPTIONS', '/pets', {});
  await send('HEAD', '/pets', k);
  await send('GET', '/pets?limit=5&limit=10', k);
  await send('GET', '/pets?status=', k);
  await send('GET', '/pets/0x10', k);
  await send('POST', '/pets', { ...k, 'content-type': 'application/json' }, '{"name":"x","categoryId":1,"extra":1}');
  await send('GET', '/pets', { authorization: 'Bearer  demo-pro' });
  await d.close();
});
