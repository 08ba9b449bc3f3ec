import { describeFaultVerdicts } from './testing/faultVerdicts.ts';

describeFaultVerdicts(3);
