import { useTranslation } from "react-i18next";
import { useDocumentTitle } from "@/ui/useDocumentTitle";
import { useDeleteMyClip, useMyClips, useRenameMyClip } from "../api/userClips";
import { ClipItem } from "../components/ClipItem";
import { EmptyState, ErrorState } from "../components/States";
import "../components/following.css";

/** /selected/clips: the clips the viewer cut, to play, rename or delete. */
export default function SelectedClipsPage() {
  const { t } = useTranslation("following");
  const clips = useMyClips();
  const rename = useRenameMyClip();
  const remove = useDeleteMyClip();
  useDocumentTitle(t("clips.title"));
  const entries = clips.data?.pages.flatMap((page) => page.entries);

  let body;
  if (clips.isError) body = <ErrorState error={clips.error} onRetry={() => void clips.refetch()} />;
  else if (!entries) body = <p role="status">{t("state.loading")}</p>;
  else if (!entries.length) body = <EmptyState>{t("clips.empty")}</EmptyState>;
  else
    body = (
      <ul className="event-tiles" aria-label={t("clips.title")}>
        {entries.map((clip) => (
          <ClipItem
            key={clip.id}
            clip={clip}
            onRename={(target, title) => rename.mutate({ clip: target, title })}
            onDelete={(target) => remove.mutate(target)}
          />
        ))}
      </ul>
    );

  return (
    <section className="page following-page" aria-labelledby="clips-title">
      <h1 id="clips-title" className="page__title">
        {t("clips.title")}
      </h1>
      {body}
      {clips.hasNextPage && (
        <button
          type="button"
          className="btn following-more"
          disabled={clips.isFetchingNextPage}
          onClick={() => void clips.fetchNextPage()}
        >
          {t("state.more")}
        </button>
      )}
    </section>
  );
}
