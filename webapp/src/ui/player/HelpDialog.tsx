import { useEffect, useId, useRef } from "react";
import { useTranslation } from "react-i18next";

interface HelpDialogProps {
  live: boolean;
  onClose: () => void;
}

/** The keyboard shortcuts of the player (`?`), over the video so it also works in fullscreen. */
export function HelpDialog({ live, onClose }: HelpDialogProps) {
  const { t } = useTranslation("player");
  const title = useId();
  const dialog = useRef<HTMLDivElement>(null);
  const close = useRef<HTMLButtonElement>(null);
  const onCloseRef = useRef(onClose);
  useEffect(() => {
    onCloseRef.current = onClose;
  }, [onClose]);
  useEffect(() => {
    close.current?.focus();
    const element = dialog.current;
    const onKey = (event: KeyboardEvent) => {
      // Keys pressed here are not the player's shortcuts.
      event.stopPropagation();
      if (event.key === "Escape") onCloseRef.current();
      // The close button is the dialog's only control: focus stays on it.
      if (event.key === "Tab") {
        event.preventDefault();
        close.current?.focus();
      }
    };
    element?.addEventListener("keydown", onKey);
    return () => element?.removeEventListener("keydown", onKey);
  }, []);
  const shortcuts: [keys: string[], action: string][] = [
    [[t("keys.space"), "K"], t("help.play_pause")],
    [["J", "←"], t("help.back", { seconds: 10 })],
    [["L", "→"], t("help.forward", { seconds: 10 })],
    [["↑", "↓"], t("help.volume")],
    [["M"], t("help.mute")],
    [["F"], t("help.fullscreen")],
    [["P"], t("help.pip")],
    ...(live ? [] : ([[["<", ">"], t("help.speed")]] as [string[], string][])),
    [["?"], t("help.help")],
  ];
  return (
    <div ref={dialog} className="player__help" role="dialog" aria-modal="true" aria-labelledby={title}>
      <h2 id={title} className="player__help-title">
        {t("help.title")}
      </h2>
      <dl className="player__help-list">
        {shortcuts.map(([keys, action]) => (
          <div key={action} className="player__help-row">
            <dt>
              {keys.map((key, index) => (
                <span key={key}>
                  {index > 0 && " / "}
                  <kbd>{key}</kbd>
                </span>
              ))}
            </dt>
            <dd>{action}</dd>
          </div>
        ))}
      </dl>
      <button ref={close} type="button" className="btn" onClick={onClose}>
        {t("help.close")}
      </button>
    </div>
  );
}
