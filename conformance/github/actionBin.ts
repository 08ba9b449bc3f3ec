// The GitHub Action's program, bundled into action/conformance.mjs by scripts/buildAction.mjs.
import { processIo } from '../../common/cliIo.ts';
import { actionMain } from './actionMain.ts';

process.exitCode = await actionMain(processIo());
