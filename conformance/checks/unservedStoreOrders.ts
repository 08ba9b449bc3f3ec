import type { Exchange } from '../http/exchange.ts';

/**
 * The contract mentions GET /store/orders and shows nothing else of it ("Other endpoints (for
 * example the store-orders listing): not shown"), so a deployment that does not serve it (404, 405, 410, 501)
 * makes an open choice: reported as a warning, never a failure.
 */
export function isUnservedStoreOrders(exchange: Exchange): boolean {
  return exchange.operationId === 'listStoreOrders' && [404, 405, 410, 501].includes(exchange.response.status);
}

/**
 * For the same reason, what GET /store/orders answers beyond "not a 5xx" is judged leniently: a
 * body or status unlike the spec's guess at it (an array of open records) is a warning.
 */
export const storeOrdersIsOpen = (operationId: string) => operationId === 'listStoreOrders';
