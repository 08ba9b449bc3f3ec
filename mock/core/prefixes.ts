/** Where the API is mounted: every path of the spec is served under it. */
export const API_PREFIX = '/v1';
/** Where the control API is mounted, beside the API. */
export const CONTROL_PREFIX = '/__mock';
