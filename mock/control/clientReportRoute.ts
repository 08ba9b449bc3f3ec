import type { FastifyPluginAsync } from 'fastify';
import { gradeClients, type ClientReport } from '../clientReport/gradeClients.ts';
import { observationOf } from '../clientReport/clientObservation.ts';
import { ApiError } from '../errors/errorCatalogue.ts';
import { keyDigest } from '../state/keyEntry.ts';
import type { RequestJournal } from '../state/stateParts.ts';

/**
 * `GET /__mock/client-report[?key=]`: how the clients behaved (issue 19), graded from the request
 * log, so it covers what the log holds (`--request-log-size`), every replica's on Redis, and is
 * cleared by reset. With `key`, only that key's requests.
 */
export const clientReportRoute: FastifyPluginAsync<{ log: RequestJournal }> = async (app, { log }) => {
  app.get<{ Querystring: Record<string, string | string[]> }>('/client-report', async (request): Promise<ClientReport> => {
    const { key, ...others } = request.query;
    const unknown = Object.keys(others);
    if (unknown.length > 0) throw new ApiError('INVALID_CONTROL_REQUEST', `GET /__mock/client-report takes only key, not ${unknown.join(', ')}. Send ?key=<API key>, or nothing for every client.`);
    if (Array.isArray(key) || key === '') throw new ApiError('INVALID_CONTROL_REQUEST', `key=${JSON.stringify(key)} must be one API key. Send ?key=demo-free, or nothing for every client.`);
    const client = key === undefined ? undefined : `key:${keyDigest(key)}`;
    const observations = (await log.recorded()).flatMap((entry) => observationOf(entry) ?? []).filter((o) => client === undefined || o.client === client);
    return gradeClients(observations);
  });
};
