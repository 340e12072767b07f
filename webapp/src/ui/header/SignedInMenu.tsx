import { useCallback, useId, useRef, useState } from "react";
import { Link, useNavigate } from "react-router";
import { useTranslation } from "react-i18next";
import { useCurrentUser } from "@/session/store";
import { useLocalePath } from "@/i18n/useLocalePath";
import { ChevronDownIcon, UserIcon } from "../icons";
import { useDismiss } from "../useDismiss";

/** The signed-in viewer's name, opening Account and Log out (a chunk loaded with the session). */
export function SignedInMenu() {
  const { t } = useTranslation("common");
  const localePath = useLocalePath();
  const navigate = useNavigate();
  const user = useCurrentUser();
  const [open, setOpen] = useState(false);
  const [leaving, setLeaving] = useState(false);
  const buttonRef = useRef<HTMLButtonElement>(null);
  const menuRef = useRef<HTMLDivElement>(null);
  const menuId = useId();
  const close = useCallback(() => setOpen(false), []);
  useDismiss(open, close, menuRef, buttonRef);

  const name = user?.fullName || user?.email || t("user.account");

  const signOut = async () => {
    setLeaving(true);
    const { logout } = await import("@/session/auth"); // loaded with the session already
    await logout(); // never throws: the local session ends even offline
    navigate(localePath("/"));
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
      >
        <UserIcon size={18} />
        <span className="user-menu__name">{name}</span>
        <span className="visually-hidden">{t("user.menu")}</span>
        <ChevronDownIcon size={16} />
      </button>
      <div ref={menuRef} id={menuId} className="user-menu__popup" hidden={!open}>
        <ul className="user-menu__list">
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
