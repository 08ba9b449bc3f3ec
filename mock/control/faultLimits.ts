/** The most fault rules a mock holds: every API request is matched against them. */
export const MAX_FAULT_RULES = 100;
