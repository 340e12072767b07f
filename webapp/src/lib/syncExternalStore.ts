// react-i18next's `use-sync-external-store/shim` import, answered by React's own hook in the
// production build (vite.config.ts): the shim only back-fills it for React before 18.
export { useSyncExternalStore } from "react";
