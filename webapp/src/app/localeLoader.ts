import { redirect, type LoaderFunction } from "react-router";
import { pageNotFound } from "@/lib/errors";
import { DEFAULT_LOCALE, isLocale } from "@/i18n/locales";

/** "/:locale/..." must name one of the locales; "/en/x" is "/x" (English has no prefix). */
export const localeLoader: LoaderFunction = ({ params, request }) => {
  const url = new URL(request.url);
  if (params.locale === DEFAULT_LOCALE) {
    throw redirect((url.pathname.replace(/^\/en(?=\/|$)/, "") || "/") + url.search);
  }
  if (!isLocale(params.locale)) throw pageNotFound(url.pathname);
  return null;
};
