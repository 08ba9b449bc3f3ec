import { describeFaultVerdicts } from './testing/faultVerdicts.ts';

describeFaultVerdicts(1);
