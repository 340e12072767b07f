// Dredd requests for staff event operations (tag admin): list and read events, create and edit an
// event, go live, finish, switch the stream, list its media assets, make, revoke and hand over its
// stream keys, read its ingest's health. Every transaction works on events it creates through the API first, so
// the seeded catalogue the other transactions rely on keeps its statuses and streams (the admin
// operations come after the catalogue ones in the contract, so Dredd lists those first anyway).
const { ids, fixtures, NOBODY, setBody, setPath, setToken, dropToken, api, seededGame, newEvent } = require('../support');

const asViewer = (t) => setToken(t, fixtures.tokens.viewer);
const staffCall = (method, path, body) => api(method, path, body, fixtures.tokens.staff);

// An event with a stream key in force; with `publishing`, an encoder publishes with it, as nginx-rtmp
// tells the server (its on_publish hook, on loopback with the hook secret: the contract server
// runs no ingest of its own).
async function eventWithKey({ publishing }) {
  const event = await newEvent();
  const issued = await staffCall('POST', `/admin/events/${event._id}/stream_keys`);
  if (publishing) {
    const form = new URLSearchParams({ call: 'publish', app: 'live', name: issued.content.key, addr: '127.0.0.1', clientid: '1' });
    const answer = await fetch(fixtures.ingestHook, { method: 'POST', body: form });
    if (answer.status !== 204) throw new Error(`the publish hook answered ${answer.status}`);
  }
  return event;
}

// The example body with ids that exist: the seeded game's teams and a seeded league.
async function exampleWithRealIds(t) {
  const game = await seededGame();
  const body = JSON.parse(t.request.body);
  return {
    ...body,
    identities: [ids.identity],
    homeTeamId: game.eventTeams.homeTeam.teamId,
    awayTeamId: game.eventTeams.awayTeam.teamId,
  };
}

const onEvent = (suffix) => (id) => `/admin/events/${id}${suffix}`;

// go_live, finish_event and set_stream_url share their 400 (an id that is no id), 401, 403 and 404.
function transition(suffix, { okStatus, wrongStatus }) {
  const path = onEvent(suffix);
  return {
    200: async (t) => setPath(t, path((await newEvent(okStatus))._id)),
    400: (t) => setPath(t, path('not-an-id')),
    401: dropToken,
    403: asViewer,
    404: (t) => setPath(t, path(NOBODY)),
    409: async (t) => setPath(t, path((await newEvent(wrongStatus))._id)),
  };
}

module.exports = {
  list_admin_events: {
    200: (t) => setPath(t, `/admin/events?status=upcoming&sportType=${encodeURIComponent('football')}&size=5`),
    400: (t) => setPath(t, '/admin/events?status=lost'), // not an EventStatus
    401: dropToken,
    403: asViewer,
  },
  get_admin_event: {
    200: async (t) => setPath(t, onEvent('')((await newEvent())._id)),
    400: (t) => setPath(t, onEvent('')('not-an-id')),
    401: dropToken,
    403: asViewer,
    404: (t) => setPath(t, onEvent('')(NOBODY)),
  },
  create_event: {
    200: async (t) => setBody(t, await exampleWithRealIds(t)),
    400: (t) => setBody(t, { event_date: '2026-11-21T18:00:00Z', sportType: 'football' }), // no title
    401: dropToken,
    403: asViewer,
    404: async (t) => setBody(t, { ...(await exampleWithRealIds(t)), identities: [NOBODY] }),
    409: async (t) => setBody(t, { ...(await exampleWithRealIds(t)), event_id: (await seededGame()).event_id }),
  },
  update_event: {
    200: async (t) => setPath(t, onEvent('')((await newEvent())._id)),
    400: async (t) => { setPath(t, onEvent('')((await newEvent())._id)); setBody(t, {}); }, // minProperties 1
    401: dropToken,
    403: asViewer,
    404: (t) => setPath(t, onEvent('')(NOBODY)),
    409: async (t) => {
      const [first, second] = [await newEvent(), await newEvent()];
      setPath(t, onEvent('')(second._id));
      setBody(t, { event_id: first.event_id });
    },
  },
  list_event_assets: {
    200: async (t) => setPath(t, onEvent('/assets')((await newEvent('live'))._id)), // its live stream's asset
    400: (t) => setPath(t, onEvent('/assets')('not-an-id')),
    401: dropToken,
    403: asViewer,
    404: (t) => setPath(t, onEvent('/assets')(NOBODY)),
  },
  list_stream_keys: {
    200: async (t) => setPath(t, onEvent('/stream_keys')((await newEvent())._id)),
    400: (t) => setPath(t, onEvent('/stream_keys')('not-an-id')),
    401: dropToken,
    403: asViewer,
    404: (t) => setPath(t, onEvent('/stream_keys')(NOBODY)),
  },
  get_event_ingest: {
    200: async (t) => setPath(t, onEvent('/ingest')((await newEvent())._id)), // no encoder yet: idle
    400: (t) => setPath(t, onEvent('/ingest')('not-an-id')),
    401: dropToken,
    403: asViewer,
    404: (t) => setPath(t, onEvent('/ingest')(NOBODY)),
  },
  set_ingest_settings: {
    200: async (t) => setPath(t, onEvent('/ingest')((await newEvent())._id)),
    400: async (t) => {
      setPath(t, onEvent('/ingest')((await newEvent())._id));
      setBody(t, { dvrSeconds: 5 }); // below a minute
    },
    401: dropToken,
    403: asViewer,
    404: (t) => setPath(t, onEvent('/ingest')(NOBODY)),
  },
  create_stream_key: {
    ...transition('/stream_keys', { okStatus: 'upcoming', wrongStatus: 'archived' }),
  },
  rotate_stream_key: {
    ...transition('/stream_keys/rotate', { okStatus: 'upcoming', wrongStatus: 'archived' }),
  },
  revoke_stream_key: {
    // An event with a key in force: the key is made first, then revoked.
    200: async (t) => {
      const event = await newEvent();
      await staffCall('POST', `/admin/events/${event._id}/stream_keys`);
      setPath(t, onEvent('/stream_keys/revoke')(event._id));
    },
    400: (t) => setPath(t, onEvent('/stream_keys/revoke')('not-an-id')),
    401: dropToken,
    403: asViewer,
    404: (t) => setPath(t, onEvent('/stream_keys/revoke')(NOBODY)),
  },
  allow_stream_key_take_over: {
    200: async (t) => setPath(t, onEvent('/stream_keys/take_over')((await eventWithKey({ publishing: true }))._id)),
    400: (t) => setPath(t, onEvent('/stream_keys/take_over')('not-an-id')),
    401: dropToken,
    403: asViewer,
    404: (t) => setPath(t, onEvent('/stream_keys/take_over')(NOBODY)),
    409: async (t) => setPath(t, onEvent('/stream_keys/take_over')((await eventWithKey({ publishing: false }))._id)),
  },
  go_live: transition('/go_live', { okStatus: 'upcoming', wrongStatus: 'archived' }),
  finish_event: transition('/finish', { okStatus: 'live', wrongStatus: 'upcoming' }),
  set_stream_url: {
    ...transition('/stream', { okStatus: 'live', wrongStatus: 'archived' }),
    400: async (t) => {
      setPath(t, onEvent('/stream')((await newEvent('live'))._id));
      setBody(t, { url: 'ftp://cdn.example/live.m3u8' }); // not a path or an http(s) URL
    },
  },
};
