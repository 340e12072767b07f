// Dredd requests for the catalogue operations (events, clips, identities, health, app config).
const { ids, NOBODY, INVALID_BODY, keepExample, emptyMap, setBody, setPath, setToken } = require('../support');

// The personalised catalogue operations take an optional token; one that does not verify is a 401.
const forgedToken = (t) => setToken(t, 'abc.def.ghi');

function byId(id, query) {
  const uri = (t, value, q) => `${t.origin.resourceName.replace('{id}', value)}?${new URLSearchParams(q)}`;
  return {
    200: (t) => setPath(t, uri(t, id, query)),
    400: (t) => setPath(t, uri(t, id, { ...query, idType: 'slug' })), // not in the idType enum
    404: (t) => setPath(t, uri(t, NOBODY, query)),
    401: (t) => { setPath(t, uri(t, id, query)); forgedToken(t); },
  };
}

module.exports = {
  list_events: { 200: keepExample, 400: (t) => setBody(t, INVALID_BODY), 401: forgedToken },
  list_clips: { 200: keepExample, 400: (t) => setBody(t, INVALID_BODY), 401: forgedToken },
  list_identities: { 200: keepExample, 400: (t) => setBody(t, INVALID_BODY) },
  get_event_by_id: byId(ids.event, { idType: '_id', media_type: 'event' }),
  get_clip_by_id: byId(ids.clip, { idType: '_id' }),
  get_identity_by_id: {
    200: (t) => {
      setPath(t, `/identity/get_by_id/id/${ids.identity}`);
      // Keyed by parent ids, which differ between the example and the seed: Dredd compares
      // keys, so expect the map without them (Schemathesis checks its schema).
      emptyMap(t, ['content', 'media_parent_order']);
    },
    400: (t) => setPath(t, `/identity/get_by_id/id/${'x'.repeat(65)}`), // longer than maxLength 64
    404: (t) => setPath(t, `/identity/get_by_id/id/${NOBODY}`),
  },
  get_event_stats: {
    200: (t) => setPath(t, `/event/stats?id=${ids.eventWithStats}`),
    400: (t) => setPath(t, '/event/stats'), // `id` is required
    404: (t) => setPath(t, `/event/stats?id=${NOBODY}`),
  },
  get_channel_programme: {
    200: (t) => setPath(t, `/event/epg/${ids.channel}`),
    400: (t) => setPath(t, `/event/epg/${ids.channel}?from=yesterday`), // `from` is a date-time
    404: (t) => setPath(t, `/event/epg/${NOBODY}`),
  },
  get_catch_up: {
    200: (t) => setPath(t, `/event/catch_up/${ids.freeLive}`),
    400: (t) => setPath(t, `/event/catch_up/${'x'.repeat(65)}`), // longer than maxLength 64
    401: (t) => { setPath(t, `/event/catch_up/${ids.freeLive}`); forgedToken(t); },
    403: (t) => setPath(t, `/event/catch_up/${ids.paidLive}`), // signed out: a paid live event
    404: (t) => setPath(t, `/event/catch_up/${NOBODY}`),
    409: (t) => setPath(t, `/event/catch_up/${ids.freeArchived}`), // not live
  },
  get_related_videos: {
    200: (t) => setPath(t, `/vod/get_related_videos?id=${ids.clip}&page=1&size=10`),
    400: (t) => setPath(t, `/vod/get_related_videos?id=${ids.clip}&size=0`), // size is at least 1
    404: (t) => setPath(t, `/vod/get_related_videos?id=${NOBODY}`),
    401: (t) => { setPath(t, `/vod/get_related_videos?id=${ids.clip}`); forgedToken(t); },
  },
  get_app_config: {
    200: keepExample,
  },
  get_health: {
    200: keepExample,
    503: 'needs the database to be unreachable; server/tests/api/test_meta.py produces it',
  },
};
