import { Suspense, lazy } from "react";
import { isRouteErrorResponse, useLocation, useRouteError } from "react-router";
import { NotFoundError, pageNotFound } from "@/lib/errors";
import { PageSkeleton } from "@/ui/PageSkeleton";

// Error screens are rare: their code (and the error messages) load when one is shown.
const NotFoundScreen = lazy(() => import("@/ui/NotFoundScreen").then((module) => ({ default: module.NotFoundScreen })));
const ErrorScreen = lazy(() => import("@/ui/ErrorScreen").then((module) => ({ default: module.ErrorScreen })));

/** The error element of every route: not-found screens by context, anything else a retry screen. */
export function RouteErrorScreen({ notFound = false }: { notFound?: boolean }) {
  return (
    <Suspense fallback={<PageSkeleton />}>
      <RouteError notFound={notFound} />
    </Suspense>
  );
}

function RouteError({ notFound }: { notFound: boolean }) {
  const error = useRouteError();
  const location = useLocation();
  if (notFound) return <NotFoundScreen error={pageNotFound(location.pathname)} />;
  if (error instanceof NotFoundError) return <NotFoundScreen error={error} />;
  if (isRouteErrorResponse(error) && error.status === 404)
    return <NotFoundScreen error={pageNotFound(location.pathname)} />;
  if (error && typeof error === "object" && "status" in error && (error as { status: unknown }).status === 404) {
    return <NotFoundScreen error={new NotFoundError("page")} />;
  }
  return <ErrorScreen error={error} />;
}
