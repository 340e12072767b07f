// Dredd requests for the viewer's playback positions (tag user): "Continue watching" and resume.
// Transactions that save positions use a fresh account, so the demo viewer stays as seeded.
const { ids, NOBODY, setBody, setPath, setToken, dropToken, api, signUp } = require('../support');

// A fresh account that stopped 754.2 s into the free archived game.
async function accountWatching() {
  const account = await signUp();
  const body = { video_id: ids.freeArchived, position: 754.2, duration: 5400 };
  await api('POST', '/user/save_playback_position', body, account.access_token);
  return account;
}

module.exports = {
  save_playback_position: {
    200: async (t) => {
      setToken(t, (await signUp()).access_token);
      setBody(t, { video_id: ids.freeArchived, position: 754.2, duration: 5400 });
    },
    400: (t) => setBody(t, { video_id: ids.freeArchived, position: 100, duration: 50 }), // past the end
    401: dropToken,
    404: (t) => setBody(t, { video_id: NOBODY, position: 10, duration: 100 }),
    409: (t) => setBody(t, { video_id: ids.channel, position: 10, duration: 100 }), // channels keep none
  },
  get_playback_position: {
    200: async (t) => {
      setToken(t, (await accountWatching()).access_token);
      setPath(t, `/user/get_playback_position?video_id=${ids.freeArchived}`);
    },
    400: (t) => setPath(t, '/user/get_playback_position?video_id=not-an-id'),
    401: dropToken,
  },
  get_continue_watching: {
    200: async (t) => setToken(t, (await accountWatching()).access_token),
    400: (t) => setPath(t, '/user/get_continue_watching?size=0'), // size is at least 1
    401: dropToken,
  },
  remove_playback_position: {
    200: async (t) => {
      setToken(t, (await accountWatching()).access_token);
      setBody(t, { video_id: ids.freeArchived });
    },
    400: (t) => setBody(t, { video_id: 'not-an-id' }),
    401: dropToken,
  },
};
