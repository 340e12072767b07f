import { Navigate, useParams } from "react-router";
import { eventPath } from "@/entities/event";
import { useLocalePath } from "@/i18n/useLocalePath";
import { useEvent } from "../api/getEvent";
import { ErrorState, LoadingNote } from "@/ui/catalog/States";
import { useEntityOrNotFound } from "@/lib/useEntityOrNotFound";

/** /redirect/events/:referenceId: finds the event by its reference id and replaces the URL with its page. */
export default function RedirectEventPage() {
  const { referenceId = "" } = useParams();
  const localePath = useLocalePath();
  const query = useEntityOrNotFound(useEvent({ id: referenceId, idType: "reference_id" }), "event");

  if (query.isSuccess) return <Navigate to={localePath(eventPath(query.data))} replace />;
  return (
    <div className="page">
      {query.isError ? <ErrorState error={query.error} onRetry={() => void query.refetch()} /> : <LoadingNote />}
    </div>
  );
}
