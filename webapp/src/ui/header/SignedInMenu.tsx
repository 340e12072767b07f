import { useCallback, useEffect, useId, useRef, useState, type KeyboardEvent } from "react";
import { Link, useNavigate } from "react-router";
import { useTranslation } from "react-i18next";
import { useCurrentUser } from "@/session/store";
import { useLocalePath } from "@/i18n/useLocalePath";
import { ChevronDownIcon, UserIcon } from "../icons";
import { useDismiss } from "../useDismiss";
import { MY_STUFF } from "./myStuff";

const ITEMS = "a, button:not(:disabled)";

function menuItems(container: HTMLElement | null): HTMLElement[] {
  return [...(container?.querySelectorAll<HTMLElement>(ITEMS) ?? [])];
}

function focusEnd(container: HTMLElement | null, end: "first" | "last"): void {
  const list = menuItems(container);
  (end === "first" ? list[0] : list.at(-1))?.focus();
}

/**
 * The signed-in viewer's name, opening their own pages ("My stuff"), Account and Log out (a chunk
 * loaded with the session). A disclosure of links: Tab walks through them, the arrow keys, Home
 * and End move between them too, Escape closes it and returns to the button.
 */
export function SignedInMenu() {
  const { t } = useTranslation("common");
  const localePath = useLocalePath();
  const navigate = useNavigate();
  const user = useCurrentUser();
  const [open, setOpen] = useState(false);
  const [leaving, setLeaving] = useState(false);
  /** Where focus goes once the menu has opened from the keyboard. */
  const focusOnOpen = useRef<"first" | "last" | null>(null);
  const buttonRef = useRef<HTMLButtonElement>(null);
  const menuRef = useRef<HTMLDivElement>(null);
  const menuId = useId();
  const groupId = useId();
  const close = useCallback(() => setOpen(false), []);
  useDismiss(open, close, menuRef, buttonRef);

  useEffect(() => {
    const target = focusOnOpen.current;
    focusOnOpen.current = null;
    if (open && target) focusEnd(menuRef.current, target);
  }, [open]);

  const name = user?.fullName || user?.email || t("user.account");

  const signOut = async () => {
    setLeaving(true);
    const { logout } = await import("@/session/auth"); // loaded with the session already
    await logout(); // never throws: the local session ends even offline
    navigate(localePath("/"));
  };

  const onButtonKeyDown = (event: KeyboardEvent<HTMLButtonElement>) => {
    if (event.key !== "ArrowDown" && event.key !== "ArrowUp") return;
    event.preventDefault();
    const target = event.key === "ArrowDown" ? "first" : "last";
    if (open) return focusEnd(menuRef.current, target);
    focusOnOpen.current = target;
    setOpen(true);
  };

  const onMenuKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const list = menuItems(event.currentTarget);
    const at = list.indexOf(document.activeElement as HTMLElement);
    const next =
      event.key === "ArrowDown"
        ? list[(at + 1) % list.length]
        : event.key === "ArrowUp"
          ? list[(at - 1 + list.length) % list.length]
          : event.key === "Home"
            ? list[0]
            : event.key === "End"
              ? list.at(-1)
              : undefined;
    if (!next) return;
    event.preventDefault();
    next.focus();
  };

  return (
    <div className="user-menu">
      <button
        ref={buttonRef}
        type="button"
        className="user-menu__button"
        aria-expanded={open}
        aria-controls={menuId}
        onClick={() => setOpen((value) => !value)}
        onKeyDown={onButtonKeyDown}
      >
        <UserIcon size={18} />
        <span className="user-menu__name">{name}</span>
        <span className="visually-hidden">{t("user.menu")}</span>
        <ChevronDownIcon size={16} />
      </button>
      {/* Arrow keys are a shortcut: every item is a link or button reachable with Tab as well. */}
      {/* eslint-disable-next-line jsx-a11y/no-static-element-interactions */}
      <div ref={menuRef} id={menuId} className="user-menu__popup" hidden={!open} onKeyDown={onMenuKeyDown}>
        <p id={groupId} className="user-menu__group">
          {t("my_stuff.label")}
        </p>
        <ul className="user-menu__list" aria-labelledby={groupId}>
          {MY_STUFF.map((item) => (
            <li key={item.path}>
              <Link className="user-menu__item" to={localePath(item.path)} onClick={close}>
                {t(item.key)}
              </Link>
            </li>
          ))}
        </ul>
        <ul className="user-menu__list user-menu__list--account">
          <li>
            <Link className="user-menu__item" to={localePath("/account")} onClick={close}>
              {t("user.account")}
            </Link>
          </li>
          <li>
            <button type="button" className="user-menu__item" onClick={signOut} disabled={leaving}>
              {t("user.log_out")}
            </button>
          </li>
        </ul>
      </div>
    </div>
  );
}
