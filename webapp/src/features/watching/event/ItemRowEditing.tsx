import { useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { useErrorText } from "@/api/errors";
import type { Announce } from "./Announcer";
import { ConfirmDelete, TitleForm } from "./ItemEditing";

/** What a row says of its item, in the panel's words. */
export interface RowEditingTexts {
  renameLabel: string;
  deleteQuestion: string;
  renamed: (title: string) => string;
  deleted: string;
}

/**
 * A moment's or clip's Rename and Delete: the two buttons, then the title form or the question in
 * their place. The outcome is announced; focus returns to Rename when either closes, and goes to
 * the panel (`onGone`) when the item is gone.
 */
export function ItemRowEditing({
  title,
  texts,
  rename,
  remove,
  announce,
  onGone,
}: {
  title: string;
  texts: RowEditingTexts;
  rename: { busy: boolean; run: (title: string) => Promise<unknown> };
  remove: { busy: boolean; run: () => Promise<unknown> };
  announce: Announce;
  onGone: () => void;
}) {
  const { t } = useTranslation("event");
  const errorText = useErrorText();
  const [mode, setMode] = useState<"view" | "rename" | "delete">("view");
  const renameButton = useRef<HTMLButtonElement>(null);
  const returnFocus = useRef(false);

  useEffect(() => {
    if (mode === "view" && returnFocus.current) {
      returnFocus.current = false;
      renameButton.current?.focus();
    }
  }, [mode]);
  const close = () => {
    returnFocus.current = true;
    setMode("view");
  };
  const failed = (error: unknown) => announce(errorText(error), "alert");

  return (
    <>
      {mode === "view" && (
        <span className="event-list__actions">
          <button ref={renameButton} type="button" className="btn btn--ghost" onClick={() => setMode("rename")}>
            {t("form.rename")} <span className="visually-hidden">{title}</span>
          </button>
          <button type="button" className="btn btn--ghost" onClick={() => setMode("delete")}>
            {t("form.delete")} <span className="visually-hidden">{title}</span>
          </button>
        </span>
      )}
      {mode === "rename" && (
        <TitleForm
          label={texts.renameLabel}
          initial={title}
          submitLabel={t("form.save")}
          busy={rename.busy}
          onCancel={close}
          onSubmit={(newTitle) =>
            void rename.run(newTitle).then(() => {
              announce(texts.renamed(newTitle));
              close();
            }, failed)
          }
        />
      )}
      {mode === "delete" && (
        <ConfirmDelete
          question={texts.deleteQuestion}
          busy={remove.busy}
          onCancel={close}
          onConfirm={() =>
            // A promise, not mutate()'s own callbacks: the reloaded list may remove this row first,
            // and TanStack Query drops an unmounted row's callbacks (the panel would say nothing).
            void remove.run().then(
              () => {
                announce(texts.deleted);
                onGone();
              },
              (error: unknown) => {
                failed(error);
                close();
              },
            )
          }
        />
      )}
    </>
  );
}
