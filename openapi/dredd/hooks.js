// Dredd hooks for `make contract` (server/checks/contract.py writes the fixtures file).
//
// Dredd makes one transaction per documented response status. These hooks make each one
// happen for real: seeded ids for 200s, a well-formed id nobody has for 404s, a request the
// contract refuses for 400s, and a bearer token on secured operations. A transaction is
// skipped only for a reason written next to it below; operations that still answer 501
// (listed by `touchline contract status`) are skipped as a whole.
const fs = require('fs');
const hooks = require('hooks');

const { ids, operations, token } = JSON.parse(fs.readFileSync(process.env.TOUCHLINE_CONTRACT_FIXTURES, 'utf8'));
const NOBODY = 'ffffffffffffffffffffffff'; // a valid 24-hex id that the seed never produces
const INVALID_BODY = JSON.stringify({ page: 'first', size: 10 }); // `page` must be an integer

// operationId -> status -> (transaction) => void, or a string: the reason it cannot happen here.
const requests = {
  list_events: { 200: keepExample, 400: (t) => setBody(t, INVALID_BODY) },
  list_clips: { 200: keepExample, 400: (t) => setBody(t, INVALID_BODY) },
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
  get_related_videos: {
    200: (t) => setPath(t, `/vod/get_related_videos?id=${ids.clip}&page=1&size=10`),
    400: (t) => setPath(t, `/vod/get_related_videos?id=${ids.clip}&size=0`), // size is at least 1
    404: (t) => setPath(t, `/vod/get_related_videos?id=${NOBODY}`),
  },
  get_health: {
    200: keepExample,
    503: 'needs the database to be unreachable; server/tests/api/test_meta.py produces it',
  },
};

function byId(id, query) {
  const uri = (t, value, q) => `${t.origin.resourceName.replace('{id}', value)}?${new URLSearchParams(q)}`;
  return {
    200: (t) => setPath(t, uri(t, id, query)),
    400: (t) => setPath(t, uri(t, id, { ...query, idType: 'slug' })), // not in the idType enum
    404: (t) => setPath(t, uri(t, NOBODY, query)),
  };
}

function keepExample() {}

function emptyMap(t, path) {
  const body = JSON.parse(t.expected.body);
  const parent = path.slice(0, -1).reduce((node, key) => node[key], body);
  parent[path[path.length - 1]] = {};
  t.expected.body = JSON.stringify(body);
}

function setBody(t, body) {
  t.request.body = body;
}

// request.uri is relative to the API base; fullPath is what Dredd requests.
function setPath(t, uri) {
  const prefix = t.fullPath.slice(0, t.fullPath.length - t.request.uri.length);
  t.request.uri = uri;
  t.fullPath = prefix + uri;
}

hooks.beforeEach((t, done) => {
  const key = `${t.request.method} ${t.origin.resourceName}`;
  const operation = operations[key];
  if (!operation) {
    t.fail = `no operation ${key} in the contract index: the fixtures file is stale`;
    return done();
  }
  if (operation.pending) {
    t.skip = true; // answers 501 until implemented: see `touchline contract status`
    return done();
  }
  if (operation.secured) {
    t.request.headers.Authorization = `Bearer ${token}`;
  }
  const make = (requests[operation.operationId] || {})[t.expected.statusCode];
  if (typeof make === 'string') {
    hooks.log(`skip ${t.name}: ${make}`);
    t.skip = true;
  } else if (make) {
    make(t);
  } else {
    t.fail = `openapi/dredd/hooks.js has no request for ${operation.operationId} ${t.expected.statusCode}`;
  }
  return done();
});
