import { useId, useRef } from "react";
import { Link, useLocation } from "react-router";
import { useTranslation } from "react-i18next";
import { useErrorText } from "@/api/errors";
import { canEditTag, type TimelineTag } from "@/entities/tag";
import { splitLocalePath } from "@/i18n/locales";
import { useLocalePath } from "@/i18n/useLocalePath";
import { useCurrentUser } from "@/session/store";
import { useRemoveTags } from "../api/removeTags";
import { useRenameTag } from "../api/updateTag";
import type { TimelineTags } from "../api/listTags";
import { formatDuration } from "@/lib/kickoff";
import { type Announce, Announcer, useAnnouncer } from "./Announcer";
import { ItemRowEditing } from "./ItemRowEditing";
import { usePlayerControls } from "./playerControls";

function TagRow({
  tag,
  editable,
  announce,
  onGone,
}: {
  tag: TimelineTag;
  editable: boolean;
  announce: Announce;
  onGone: () => void;
}) {
  const { t } = useTranslation("event");
  const controls = usePlayerControls();
  const rename = useRenameTag();
  const remove = useRemoveTags(tag.targetId);
  const time = formatDuration(tag.time);

  return (
    <li className="event-list__item">
      <button type="button" className="event-list__main event-moment" onClick={() => controls.seek(tag.time)}>
        <span className="visually-hidden">{t("moments.seek")}</span>{" "}
        <time className="event-moment__time" dateTime={`PT${Math.floor(tag.time)}S`}>
          {time}
        </time>{" "}
        <span className="event-moment__title" dir="auto">
          {tag.title}
        </span>
        {tag.global && (
          <>
            {" "}
            <span className="event-moment__badge">{t("moments.everyone")}</span>
          </>
        )}
      </button>
      {editable && (
        <ItemRowEditing
          title={tag.title}
          texts={{
            renameLabel: t("moments.rename_label", { title: tag.title }),
            deleteQuestion: t("moments.delete_question", { title: tag.title, time }),
            renamed: (title) => t("moments.renamed", { title }),
            deleted: t("moments.deleted", { title: tag.title }),
          }}
          rename={{ busy: rename.isPending, run: (title) => rename.mutateAsync({ id: tag.id, title }) }}
          remove={{ busy: remove.isPending, run: () => remove.mutateAsync([tag.id]) }}
          announce={announce}
          onGone={onGone}
        />
      )}
    </li>
  );
}

/**
 * The moments of the match (timeline tags): the official and shared ones and the viewer's own,
 * in order; each goes to its moment in the player. The viewer renames and deletes their own.
 * Tags load only for signed-in viewers (spec §6); a failed load is said, not hidden (spec §8).
 */
export function MomentsPanel({ tags }: { tags: TimelineTags | null }) {
  const { t } = useTranslation("event");
  const errorText = useErrorText();
  const localePath = useLocalePath();
  const { pathname, search } = useLocation();
  const user = useCurrentUser();
  const headingId = useId();
  const heading = useRef<HTMLHeadingElement>(null);
  const [message, announce] = useAnnouncer();
  const viewer = user ? { id: user.id, canCreateGlobalTag: user.canCreateGlobalTag } : null;

  let content: React.ReactNode;
  if (!tags) {
    const returnTo = splitLocalePath(pathname).path + search;
    content = (
      <p className="event-panel__hint">
        <Link to={localePath(`/auth/login/?redirect=${encodeURIComponent(returnTo)}`)}>{t("moments.sign_in")}</Link>
      </p>
    );
  } else if (tags.isPending) {
    content = <p className="event-panel__hint">{t("moments.loading")}</p>;
  } else {
    content = (
      <>
        {tags.error !== null && (
          <div className="event-panel__error" role="alert">
            <p>
              {t("moments.load_failed")} {errorText(tags.error)}
            </p>
            <button type="button" className="btn" onClick={tags.refetch}>
              {t("stage.retry")}
            </button>
          </div>
        )}
        {tags.tags.length === 0 ? (
          tags.error === null && <p className="event-panel__hint">{t("moments.empty")}</p>
        ) : (
          <ol className="event-list" aria-labelledby={headingId}>
            {tags.tags.map((tag) => (
              <TagRow
                key={tag.id}
                tag={tag}
                editable={canEditTag(tag, viewer)}
                announce={announce}
                onGone={() => heading.current?.focus()}
              />
            ))}
          </ol>
        )}
      </>
    );
  }

  return (
    <section className="event-panel" aria-labelledby={headingId}>
      <h2 id={headingId} ref={heading} className="event-panel__title" tabIndex={-1}>
        {t("moments.title")}
      </h2>
      {content}
      <Announcer message={message} />
    </section>
  );
}
