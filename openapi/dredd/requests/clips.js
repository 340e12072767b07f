// Dredd requests for the viewer's own clips (tag clip): create, rename, delete and list them.
// Every transaction that makes or looks at clips uses a fresh account, so the demo viewer owns
// none and the transactions do not see each other's clips. Clips are cut from seeded archived
// games (their VOD stream is a 24 s sample, so times stay within it).
const { fixtures, NOBODY, setBody, setPath, setToken, dropToken, api, signUp } = require('../support');

const CLIP_LIMIT = 60; // clips per viewer and 10 minutes (server/services/user_clips.py CREATE_LIMIT)
const PAGES = 20;

// A seeded archived game a fresh viewer may (`watchable`) or may not watch, with a VOD stream.
const games = {};
function archivedGame(watchable) {
  const key = watchable ? 'watchable' : 'locked';
  if (!games[key]) {
    games[key] = (async () => {
      const viewer = await signUp();
      for (let page = 0; page < PAGES; page += 1) {
        const answer = await api('POST', '/event/list', { page, size: 100, filters: { status: ['archived'] } },
          viewer.access_token);
        const found = answer.content.entries.find((e) => e.availableInUserRegion
          && e.availableForUser === watchable && (!watchable || e.content.HLSStream));
        if (found) return found._id;
        if (!answer.content.entries.length) break;
      }
      throw new Error(`the seed has no archived game a new viewer ${watchable ? 'may' : 'may not'} watch`);
    })();
  }
  return games[key];
}

function clipBody(eventId, extra = {}) {
  return { event_id: eventId, title: "Mariners' opening goal", startTime: 2, endTime: 8, media_type: 'user_clip',
    ...extra };
}

function postClip(body, token) {
  return fetch(`${fixtures.base}/api/clip/create`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${token}` },
    body: JSON.stringify(body),
  });
}

// A fresh account with one clip: { account, clip }.
async function clipper() {
  const account = await signUp();
  const clip = (await api('POST', '/clip/create', clipBody(await archivedGame(true)), account.access_token)).content;
  return { account, clip };
}

// update_clip and delete_clip: an operation on one of the viewer's clips, by id in the path.
function ownClip(base) {
  return {
    200: async (t) => {
      const { account, clip } = await clipper();
      setToken(t, account.access_token);
      setPath(t, `${base}/${clip._id}`);
    },
    400: (t) => setPath(t, `${base}/not-an-id`), // not an Id
    401: (t) => {
      dropToken(t);
      setPath(t, `${base}/${NOBODY}`);
    },
    // Another viewer's clip (the transaction goes as the demo viewer): as if it did not exist.
    404: async (t) => setPath(t, `${base}/${(await clipper()).clip._id}`),
  };
}

module.exports = {
  create_clip: {
    200: async (t) => {
      setToken(t, (await signUp()).access_token);
      setBody(t, clipBody(await archivedGame(true)));
    },
    // Schema-valid, but the clip would end before it starts (invalid_time_range).
    400: async (t) => setBody(t, clipBody(await archivedGame(true), { startTime: 8, endTime: 2 })),
    401: dropToken,
    403: async (t) => {
      setToken(t, (await signUp()).access_token); // holds nothing: a paid game is not theirs to clip
      setBody(t, clipBody(await archivedGame(false)));
    },
    404: (t) => setBody(t, clipBody(NOBODY)),
    429: async (t) => {
      const account = await signUp();
      const body = clipBody(await archivedGame(true), { startTime: 0, endTime: 1 });
      // The limit counts per fixed window: go on until it refuses (a window may turn meanwhile).
      for (let made = 0; ; made += 1) {
        const answer = await postClip(body, account.access_token);
        if (answer.status === 429) break;
        if (answer.status !== 200) throw new Error(`creating a clip answered ${answer.status}`);
        if (made > 2 * CLIP_LIMIT) throw new Error(`no 429 after ${made} clips: is the limit still ${CLIP_LIMIT}?`);
      }
      setToken(t, account.access_token);
      setBody(t, body);
    },
  },
  update_clip: ownClip('/clip/update'),
  delete_clip: ownClip('/clip/delete'),
  list_user_clips: {
    200: async (t) => {
      const { account, clip } = await clipper();
      setToken(t, account.access_token);
      setBody(t, { next: true, count: true, page: 0, size: 24, sort: 'added', order: 'desc',
        event_id: [clip.event_id], media_type: ['user_clip'] });
    },
    400: (t) => setBody(t, { size: 101 }), // at most 100
    401: dropToken,
  },
};
