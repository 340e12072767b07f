// Dredd requests for the staff tools (tag admin): API keys and roles (admin only), the audit log and the
// monitoring snapshot (support may read them). 403s: a support session on admin operations, the
// demo viewer on support operations.
const {
  fixtures, NOBODY, keepExample, emptyMap, setBody, setPath, setToken, dropToken, api, signUp,
} = require('../support');

const asSupport = (t) => setToken(t, fixtures.tokens.support);
const asViewer = (t) => setToken(t, fixtures.tokens.viewer);

async function newKey() {
  return (await api('POST', '/admin/keys', { name: 'dredd', role: 'support' }, fixtures.tokens.staff)).content.key;
}

module.exports = {
  list_api_keys: {
    200: (t) => setPath(t, '/admin/keys?revoked=true'),
    400: (t) => setPath(t, '/admin/keys?revoked=maybe'),
    401: dropToken,
    403: asSupport,
  },
  create_api_key: {
    200: keepExample,
    400: (t) => setBody(t, { name: 'dredd', role: 'owner' }), // not a StaffRole
    401: dropToken,
    403: asSupport,
  },
  revoke_api_key: {
    200: async (t) => setPath(t, `/admin/keys/${(await newKey())._id}/revoke`),
    400: (t) => setPath(t, '/admin/keys/not-an-id/revoke'),
    401: dropToken,
    403: asSupport,
    404: (t) => setPath(t, `/admin/keys/${NOBODY}/revoke`),
  },
  list_audit_entries: {
    200: (t) => setPath(t, '/admin/audit?action=create_api_key&since=2000-01-01T00:00:00Z'),
    400: (t) => setPath(t, '/admin/audit?since=yesterday'),
    401: dropToken,
    403: asViewer,
  },
  set_user_role: {
    200: async (t) => {
      setPath(t, `/admin/users/${(await signUp()).userId}/role`); // a fresh viewer becomes support
      emptyMap(t, ['content', 'profile', 'options']); // a fresh account has no survey records
    },
    400: async (t) => setBody(t, { role: 'owner' }), // not a Role
    401: dropToken,
    403: asSupport,
    404: (t) => setPath(t, `/admin/users/${NOBODY}/role`),
    409: (t) => setPath(t, `/admin/users/${fixtures.accounts.staff.userId}/role`), // the caller's own account
  },
  get_monitor: {
    200: keepExample,
    400: (t) => setPath(t, '/admin/monitor?limit=0'),
    401: dropToken,
    403: asViewer,
  },
};
