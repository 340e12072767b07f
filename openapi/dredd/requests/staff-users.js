// Dredd requests for accounts as support staff see them (tag admin): finding accounts, one
// account, its sessions and devices, ending a session and removing a device, its purchases,
// contracts and follows. Transactions that change an account use a fresh viewer, so the demo
// accounts stay as seeded; the read-only lists look at the demo viewer.
const { fixtures, NOBODY, emptyMap, setPath, setToken, dropToken, api, signUp, uniqueDevice } = require('../support');

const asViewer = (t) => setToken(t, fixtures.tokens.viewer);
const staffGet = (path) => api('GET', path, undefined, fixtures.tokens.staff);

// A fresh viewer, signed in on a second device too.
async function signedInTwice() {
  const account = await signUp();
  const other = uniqueDevice();
  await api('POST', '/user/login', { username: account.email, password: account.password, device_id: other, device_name: other });
  return account;
}

async function sessionOn(account, deviceId) {
  const page = await staffGet(`/admin/users/${account.userId}/sessions`);
  const session = page.content.entries.find((s) => s.deviceId === deviceId);
  if (!session) throw new Error(`no session of ${account.userId} on ${deviceId}`);
  return session._id;
}

async function deviceRef(account, deviceId) {
  const answer = await staffGet(`/admin/users/${account.userId}/devices`);
  const device = answer.content.devices.find((d) => d.deviceId === deviceId);
  if (!device) throw new Error(`no device ${deviceId} of ${account.userId}`);
  return device._id;
}

module.exports = {
  find_users: {
    200: (t) => setPath(t, `/admin/users?q=${encodeURIComponent(fixtures.accounts.viewer.email)}&role=viewer`),
    400: (t) => setPath(t, '/admin/users?q=fan&role=owner'), // not a Role
    401: dropToken,
    403: asViewer,
  },
  get_user: {
    200: async (t) => {
      setPath(t, `/admin/users/${(await signUp()).userId}`);
      emptyMap(t, ['content', 'profile', 'options']); // a fresh account has no survey records
    },
    400: (t) => setPath(t, '/admin/users/not-an-id'),
    401: dropToken,
    403: asViewer,
    404: (t) => setPath(t, `/admin/users/${NOBODY}`),
  },
  list_user_sessions: {
    200: async (t) => setPath(t, `/admin/users/${(await signedInTwice()).userId}/sessions?active=true`),
    400: (t) => setPath(t, `/admin/users/${NOBODY}/sessions?active=maybe`),
    401: dropToken,
    403: asViewer,
    404: (t) => setPath(t, `/admin/users/${NOBODY}/sessions`),
  },
  revoke_session: {
    200: async (t) => {
      const account = await signUp();
      setPath(t, `/admin/users/${account.userId}/sessions/${await sessionOn(account, account.device)}/revoke`);
    },
    400: (t) => setPath(t, `/admin/users/${NOBODY}/sessions/not-a-session/revoke`),
    401: dropToken,
    403: asViewer,
    404: async (t) => setPath(t, `/admin/users/${(await signUp()).userId}/sessions/${NOBODY}/revoke`),
  },
  list_user_devices: {
    200: async (t) => setPath(t, `/admin/users/${(await signedInTwice()).userId}/devices`),
    400: (t) => setPath(t, '/admin/users/not-an-id/devices'),
    401: dropToken,
    403: asViewer,
    404: (t) => setPath(t, `/admin/users/${NOBODY}/devices`),
  },
  revoke_device: {
    200: async (t) => {
      const account = await signedInTwice(); // one device is left, as in the example
      setPath(t, `/admin/users/${account.userId}/devices/${await deviceRef(account, account.device)}/revoke`);
    },
    400: (t) => setPath(t, `/admin/users/${NOBODY}/devices/not-a-device/revoke`),
    401: dropToken,
    403: asViewer,
    404: async (t) => setPath(t, `/admin/users/${(await signUp()).userId}/devices/${NOBODY}/revoke`),
  },
  ...Object.fromEntries(['purchases', 'contracts', 'follows'].map((what) => [`list_user_${what}`, {
    200: (t) => setPath(t, `/admin/users/${fixtures.accounts.viewer.userId}/${what}?size=5`),
    400: (t) => setPath(t, `/admin/users/not-an-id/${what}`),
    401: dropToken,
    403: asViewer,
    404: (t) => setPath(t, `/admin/users/${NOBODY}/${what}`),
  }])),
};
