// `pet-adoption-toolkit/msw` for a browser bundler (the `browser` export condition): the same
// createPetsHandlers as in Node, for MSW's setupWorker, on the framework-free core.
export { createPetsHandlers, MockControlError } from '../../mock/adapters/mswBrowser.ts';
export type { PetsHandlers, PetsMockOptions, PetsMock, PetsMockControl, LoggedRequest, RequestFilter, ClockState, KeySettings, FaultRule, Fault, ClientReport, ClientFinding } from '../../mock/adapters/mswBrowser.ts';
