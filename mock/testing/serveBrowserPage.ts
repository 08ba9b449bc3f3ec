// The frontend guide's browser example (mock/adapters/examples/browserPage), built by Vite as a
// frontend team's build would (the package's `browser` entry, no Node polyfills) and served with
// MSW's service worker script from 127.0.0.1, a secure context where service workers run.
import { copyFile, mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { extname, join, normalize } from 'node:path';
import { build } from 'vite';
import { projectPath } from '../../common/projectRoot.ts';

const types: Record<string, string> = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css', '.json': 'application/json' };

export interface ServedPage {
  origin: string;
  close(): Promise<void>;
}

export async function serveBrowserPage(): Promise<ServedPage> {
  const out = await mkdtemp(join(tmpdir(), 'pets-browser-page-'));
  await build({
    configFile: false,
    root: projectPath('mock/adapters/examples/browserPage'),
    logLevel: 'silent',
    // The package as a consumer's bundler resolves it for a page: its `browser` entry.
    resolve: { alias: [{ find: /^pet-adoption-toolkit\/msw$/, replacement: projectPath('common/browserEntries/msw.ts') }] },
    build: { outDir: out, emptyOutDir: true, target: 'es2022', minify: false },
  });
  // What `npx msw init` puts in a project's public folder.
  await copyFile(projectPath('node_modules/msw/lib/mockServiceWorker.js'), join(out, 'mockServiceWorker.js'));
  const server = createServer((req, res) => {
    const path = normalize(new URL(req.url ?? '/', 'http://page').pathname).replace(/^\/+/, '') || 'index.html';
    readFile(join(out, path)).then(
      (bytes) => res.writeHead(200, { 'content-type': types[extname(path)] ?? 'application/octet-stream' }).end(bytes),
      () => res.writeHead(404).end(),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    async close() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      await rm(out, { recursive: true, force: true });
    },
  };
}
