import { describe, expect, it } from 'vitest';
import { findOperation, loadSpec } from '../../spec/loadSpec.ts';
import { createPrismResponder } from './prismResponder.ts';

/**
 * The message ports keeping this process's event loop alive (Node lists only referenced handles).
 * A worker's port is referenced while it has a 'message' listener unless the worker is unref'd;
 * the rest of the list (timers, pipes, file closes) comes and goes with the test runner.
 */
const heldPorts = () => process.getActiveResourcesInfo().filter((name) => name === 'MessagePort').length;

describe('createPrismResponder', () => {
  it('keeps the process alive while a query waits for its answer, and never once idle or closed', async () => {
    const spec = await loadSpec(undefined, { validate: false });
    const before = heldPorts();
    const prism = createPrismResponder(spec, 'silent');
    // A script awaiting a Prefer answer must not end before it; a mock left open (a test file
    // with no close(), a script) must not keep Jest or node from exiting once it is answered.
    const answering = prism.respond(findOperation(spec, 'getPet'), { code: 404 });
    expect(heldPorts()).toBe(before + 1);
    expect((await answering).status).toBe(404);
    expect(heldPorts()).toBe(before);
    prism.warm();
    expect(heldPorts()).toBe(before);
    await prism.close();
    expect(heldPorts()).toBe(before);
  });

  it('starts a new worker for a responder used after the last one closed', async () => {
    const spec = await loadSpec(undefined, { validate: false });
    const first = createPrismResponder(spec, 'silent');
    expect((await first.respond(findOperation(spec, 'listPets'))).status).toBe(200);
    await first.close();
    const second = createPrismResponder(spec, 'silent');
    expect((await second.respond(findOperation(spec, 'getPet'), { code: 404 })).status).toBe(404);
    await second.close();
  });
});
