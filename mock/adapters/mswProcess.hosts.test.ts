// MSW's host in a process of its own, as a user's script runs it: the mock must not keep the
// process alive once the script's work is done. A real process (seconds to start with tsx and
// Prism's worker), so it runs in the hosts tier (`npm run test:hosts`), not in `npm test`.
import { describe, expect, it, onTestFinished } from 'vitest';
import { projectPath } from '../../common/projectRoot.ts';
import { runProcess } from '../../common/testing/runProcess.ts';

describe('createPetsHandlers in a script of its own', () => {
  it('lets a script that never closes its mock exit once its work is done', async () => {
    const script = `
      import { setupServer } from 'msw/node';
      import { createPetsHandlers } from ${JSON.stringify(projectPath('mock', 'adapters', 'msw.ts'))};
      const { handlers } = await createPetsHandlers();
      const server = setupServer(...handlers);
      server.listen();
      // A forced 2xx is answered through Prism's worker, which must not keep the script alive after.
      const res = await fetch('http://127.0.0.1:4010/v1/pets/1', { headers: { authorization: 'Bearer demo-pro', prefer: 'code=200, dynamic=true' } });
      console.log(res.status, (await res.json()).id);
      server.close();`;
    const { child, done } = runProcess(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { cwd: projectPath() });
    onTestFinished(() => void child.kill('SIGKILL'));
    // A hang is caught by the test timeout.
    const { code, output } = await done;
    expect(output).toContain('200 1');
    expect(code, output).toBe(0);
  });
});
