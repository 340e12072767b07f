/**
 * The personal rails' code, fetched for signed-in viewers only. A module of its own: the home
 * page's chunk (part of everyone's first load) then lists this one file to preload, not every
 * chunk the rails need.
 */
export const loadPersonalRails = () => import("./PersonalRails");
