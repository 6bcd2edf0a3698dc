import type { FastifyInstance } from 'fastify';
import type { Engine } from '../../engine/engine';
import { checkTimelineRequest, readTimeline, readTimelineJson, TIMELINE_PAGE_SIZE, type TimelineKind } from '../../engine/reads';
import { isPageCursor } from '../../engine/upstream/pages';
import { timelineVia } from '../../engine/upstream/fetch-reads';
import { checkFirst, schemaError, sendPageVia, stringParam } from './spec-route';

const KINDS: TimelineKind[] = ['tweets', 'tweets-and-replies'];

/** Spec 4.1 and 4.2: a user's timeline, 20 per page, newest first. */
export function registerTimelineRoutes(app: FastifyInstance, engine: Engine): void {
  for (const kind of KINDS) {
    app.get(`/social/user/:user_id/${kind}`, {
      config: { spec: true, maxCost: TIMELINE_PAGE_SIZE },
      schema: {
        params: { type: 'object', properties: { user_id: stringParam(64) }, required: ['user_id'] },
        querystring: { type: 'object', properties: { cursor: stringParam(256) } },
      },
      schemaErrorFormatter: schemaError,
      preValidation: checkFirst((request) => {
        const { user_id } = request.params as { user_id: string };
        // An upstream page's cursor is checked where it is used (upstream/pages.ts).
        const cursor = (request.query as { cursor?: unknown }).cursor;
        checkTimelineRequest(engine, kind, user_id, isPageCursor(cursor) ? undefined : cursor);
      }),
      handler: (request, reply) => {
        const { user_id } = request.params as { user_id: string };
        const { cursor } = request.query as { cursor?: string };
        const local = () => readTimeline(engine, kind, user_id, cursor);
        // Offline, the page's JSON is written by SQLite (reads/timeline.ts readTimelineJson).
        return sendPageVia(engine, request, reply, (who) => timelineVia(engine, who, kind, user_id, cursor, local), () => readTimelineJson(engine, kind, user_id, cursor));
      },
    });
  }
}
